import { EventEmitter } from 'eventemitter3';
import { RequestValidationError } from '../../errors/request-validation-error.js';
import type { ClientContext } from '../client-context.js';
import { batchIdFor } from './batch-id.js';
import { BulkInsufficientFundsError } from '../../errors/bulk-insufficient-funds-error.js';
import { earlierRowResult, readEarlierRun } from './earlier-run.js';
import { type AirtimeBulkSource, loadRows, type NumberedRow } from './load-rows.js';
import { sendBulkPayment } from './send-bulkpayment.js';
import { type Purchase, sendPurchases } from './send-purchases.js';
import { BulkTally, cents } from './totals.js';
import type {
  AirtimeBulkEvents,
  AirtimeBulkOptions,
  AirtimeBulkResult,
  AirtimeBulkRowOutcome,
} from './types.js';

/** What the batch needs from the Airtime resource. */
export interface AirtimeForBulk {
  purchase: Purchase;
  user(): Promise<{ user: { wallet: { balance: number } } }>;
}

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;

type BulkListener<E extends keyof AirtimeBulkEvents> = (...args: AirtimeBulkEvents[E]) => void;

/** A batch in progress: the promise of its result, with `on`/`off` for `row` and `progress`. */
export class AirtimeBulkPurchase extends Promise<AirtimeBulkResult> {
  // `then`/`catch`/`finally` return plain promises, not new batches.
  static override get [Symbol.species]() {
    return Promise;
  }
  readonly #events = new EventEmitter<AirtimeBulkEvents>();

  constructor(run: (batch: AirtimeBulkPurchase) => Promise<AirtimeBulkResult>) {
    let resolve!: (result: AirtimeBulkResult) => void;
    let reject!: (reason: unknown) => void;
    super((fulfil, fail) => {
      resolve = fulfil;
      reject = fail;
    });
    // A tick later, so that listeners added in the caller's tick see every event.
    queueMicrotask(() => run(this).then(resolve, reject));
  }

  on<E extends keyof AirtimeBulkEvents>(event: E, listener: BulkListener<E>): this {
    this.#events.on(event, listener as never);
    return this;
  }

  off<E extends keyof AirtimeBulkEvents>(event: E, listener: BulkListener<E>): this {
    this.#events.off(event, listener as never);
    return this;
  }

  /** A listener that throws must not stop a batch that is moving money. */
  announce<E extends keyof AirtimeBulkEvents>(event: E, ...args: AirtimeBulkEvents[E]): void {
    try {
      (this.#events.emit as (event: E, ...args: AirtimeBulkEvents[E]) => boolean)(event, ...args);
    } catch (error) {
      process.emitWarning(`A pesakit bulkPurchase "${event}" listener threw: ${String(error)}`);
    }
  }
}

/** Checks rows, an earlier run and the wallet before the first intent, then sends the rest. */
export function startBulkPurchase(
  context: ClientContext,
  airtime: AirtimeForBulk,
  source: AirtimeBulkSource,
  options: AirtimeBulkOptions = {},
): AirtimeBulkPurchase {
  return new AirtimeBulkPurchase(async (batch) => {
    const concurrency = concurrencyOf(options.concurrency);
    const batchId = batchIdFor(options.batchId);
    const via = options.via ?? 'purchase';
    if (via !== 'purchase' && via !== 'bulkpayment') {
      throw new RequestValidationError('airtimeBulkPurchase', {
        via: ["The via option must be 'purchase' or 'bulkpayment'."],
      });
    }
    const loaded = await loadRows(source, options.format);
    const earlier = await readEarlierRun(context.store, batchId, loaded.rows);
    const toSend = loaded.rows.filter((row) => !earlier.has(row.row));
    if (options.checkBalance !== false && toSend.length > 0) {
      await checkBalance(airtime, toSend);
    }

    const results = new Map<number, AirtimeBulkRowOutcome>();
    const tally = new BulkTally(loaded.rows.map((row) => row.amount));
    const onRow = (result: AirtimeBulkRowOutcome) => {
      results.set(result.row, result);
      tally.add(result);
      batch.announce('row', result);
      batch.announce('progress', tally.totals());
    };
    for (const row of loaded.rows) {
      const record = earlier.get(row.row);
      if (record) onRow(earlierRowResult(row, record));
    }
    if (toSend.length > 0 && via === 'bulkpayment') {
      await sendBulkPayment({
        context,
        batchId,
        rows: toSend,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        onRow,
      });
    } else if (toSend.length > 0) {
      await sendPurchases({
        batchId,
        rows: toSend,
        purchase: airtime.purchase,
        store: context.store,
        concurrency,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        onRow,
      });
    }
    return {
      batchId,
      via,
      rows: loaded.rows.map((row) => results.get(row.row)!),
      totals: tally.totals(),
    };
  });
}

function concurrencyOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new RequestValidationError('airtimeBulkPurchase', {
      concurrency: [`The concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`],
    });
  }
  return value;
}

/** The wallet must cover every row still to send, so a batch does not stop halfway. */
async function checkBalance(airtime: AirtimeForBulk, rows: readonly NumberedRow[]): Promise<void> {
  const required = rows.reduce((sum, row) => sum + cents(row.amount), 0);
  const { user } = await airtime.user();
  const balance = cents(user.wallet.balance);
  if (balance < required) throw new BulkInsufficientFundsError(balance / 100, required / 100);
}
