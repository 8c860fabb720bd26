import { EventEmitter } from 'eventemitter3';
import { RequestValidationError } from '../../errors/request-validation-error.js';
import type { ClientContext } from '../client-context.js';
import { checkedBatchId, derivedBatchId } from './batch-id.js';
import type { BulkProduct, BulkRow, SendRow } from './bulk-product.js';
import { earlierRowResult, readEarlierRun } from './earlier-run.js';
import { type BulkFloat, checkFloat } from './float.js';
import { type BulkSource, loadRows } from './load-rows.js';
import { refuseRepeatRun } from './repeat-run.js';
import { sendRows } from './send-rows.js';
import { BulkTally } from './totals.js';
import type {
  BulkEvents,
  BulkOptions,
  BulkResult,
  BulkRowOutcome,
  BulkStopReason,
} from './types.js';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;

type BulkListener<E extends keyof BulkEvents> = (...args: BulkEvents[E]) => void;

/** A batch in progress: the promise of its result, with `on`/`off` for `row` and `progress`. */
export class BulkBatch<Result extends BulkResult = BulkResult> extends Promise<Result> {
  // `then`/`catch`/`finally` return plain promises, not new batches.
  static override get [Symbol.species]() {
    return Promise;
  }
  readonly #events = new EventEmitter<BulkEvents>();

  constructor(run: (batch: BulkBatch<Result>) => Promise<Result>) {
    let resolve!: (result: Result) => void;
    let reject!: (reason: unknown) => void;
    super((fulfil, fail) => {
      resolve = fulfil;
      reject = fail;
    });
    // A tick later, so that listeners added in the caller's tick see every event.
    queueMicrotask(() => run(this).then(resolve, reject));
  }

  on<E extends keyof BulkEvents>(event: E, listener: BulkListener<E>): this {
    this.#events.on(event, listener as never);
    return this;
  }

  off<E extends keyof BulkEvents>(event: E, listener: BulkListener<E>): this {
    this.#events.off(event, listener as never);
    return this;
  }

  /** A listener that throws must not stop a batch that is moving money. */
  announce<E extends keyof BulkEvents>(event: E, ...args: BulkEvents[E]): void {
    try {
      (this.#events.emit as (event: E, ...args: BulkEvents[E]) => boolean)(event, ...args);
    } catch (error) {
      process.emitWarning(`A pesakit bulk "${event}" listener threw: ${String(error)}`);
    }
  }
}

/** How a run sends the rows left: one call per row, or another way (airtime's upload). */
export type SendLeft = (
  batchId: string,
  rows: readonly BulkRow[],
  onRow: (result: BulkRowOutcome) => void,
) => Promise<BulkStopReason | undefined>;

export interface BulkRunPlan {
  product: BulkProduct;
  send: SendRow;
  source: BulkSource;
  options: BulkOptions;
  /** The wallet check before the first row; none: not checked. */
  float: BulkFloat | undefined;
  partial?: boolean | undefined;
  sendLeft?: SendLeft;
}

/**
 * The one bulk engine: checks rows, an earlier run of the batch id (the id given, else one derived
 * from the rows) and the wallet before the first intent, reports the earlier run's rows, then
 * sends the rest.
 */
export async function runBulk(
  context: ClientContext,
  batch: BulkBatch<BulkResult>,
  plan: BulkRunPlan,
): Promise<BulkResult> {
  const { product, options } = plan;
  const concurrency = concurrencyOf(product.operation, options.concurrency);
  const given =
    options.batchId === undefined ? undefined : checkedBatchId(options.batchId, product.operation);
  const rows = await loadRows(product, plan.source, options.format);
  const batchId = given ?? derivedBatchId(product, rows);
  const earlier = await readEarlierRun(context.store, product, batchId, rows);
  refuseRepeatRun({
    product,
    batchId,
    derived: given === undefined,
    rows,
    earlier,
    now: new Date(),
  });
  const left = rows.filter((row) => !earlier.has(row.row));
  if (plan.float && left.length > 0) {
    await checkFloat(plan.float, context.store, left, plan.partial === true);
  }

  const results = new Map<number, BulkRowOutcome>();
  const tally = new BulkTally(rows.map((row) => row.amount));
  const onRow = (result: BulkRowOutcome) => {
    results.set(result.row, result);
    tally.add(result);
    batch.announce('row', result);
    batch.announce('progress', tally.totals());
  };
  for (const row of rows) {
    const record = earlier.get(row.row);
    if (record) onRow(earlierRowResult(product, batchId, row, record));
  }
  const sendLeft: SendLeft =
    plan.sendLeft ??
    ((_, rows) =>
      sendRows({
        product,
        send: plan.send,
        batchId,
        rows,
        store: context.store,
        concurrency,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        float: plan.float,
        onRow,
      }));
  const stoppedFor = left.length > 0 ? await sendLeft(batchId, left, onRow) : undefined;
  return {
    batchId,
    rows: rows.map((row) => results.get(row.row)!),
    totals: tally.totals(),
    ...(stoppedFor !== undefined ? { stoppedFor } : {}),
  };
}

function concurrencyOf(operation: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new RequestValidationError(operation, {
      concurrency: [`The concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`],
    });
  }
  return value;
}
