import { RequestValidationError } from '../../errors/request-validation-error.js';
import type { TransactionRecord } from '../../references/index.js';
import { AIRTIME_BULK_MAX_FILE_BYTES, AIRTIME_BULK_MAX_ROWS } from '../../schemas/airtime-bulk.js';
import {
  airtimeBulkColumns,
  type UncheckedAirtimeBulkRow,
  validateAirtimeBulkRows,
} from '../../spreadsheets/index.js';
import type { ClientContext } from '../client-context.js';
import type { MoneyMovementOptions } from '../move-money.js';
import type { BulkProduct } from './bulk-product.js';
import { BulkBatch, runBulk } from './bulk-run.js';
import type { BulkSource } from './load-rows.js';
import { sendBulkPayment } from './send-bulkpayment.js';
import { cents } from './totals.js';
import type { AirtimeBulkOptions, AirtimeBulkResult, AirtimeBulkRowInput } from './types.js';

/** A batch of airtime in progress: the promise of its result, with `row` and `progress` events. */
export type AirtimeBulkPurchase = BulkBatch<AirtimeBulkResult>;

/** What `bulkPurchase` takes: rows, a file path, or the bytes of an .xlsx/.csv file. */
export type AirtimeBulkSource = readonly AirtimeBulkRowInput[] | string | Uint8Array;

/** What the batch needs from the Airtime resource: `purchase` (write-ahead) and the wallet. */
export interface AirtimeForBulk {
  purchase(
    request: { msisdn: string; amount: number },
    options: MoneyMovementOptions,
  ): Promise<{ message: string; record: TransactionRecord }>;
  user(): Promise<{ user: { wallet: { balance: number } } }>;
}

/** Airtime rows: `msisdn, amount, reference?`, each one purchase. */
export const airtimeBulkRows: BulkProduct = {
  operation: 'airtimeBulkPurchase',
  prefix: 'airtime',
  flow: 'airtime_purchase',
  columns: airtimeBulkColumns,
  maxRows: AIRTIME_BULK_MAX_ROWS,
  maxFileBytes: AIRTIME_BULK_MAX_FILE_BYTES,
  validate: (rows) => validateAirtimeBulkRows(rows as UncheckedAirtimeBulkRow[]),
  openAfterAnswer: 'unknown',
  settledBy:
    'The platform has no purchase status route: `pesakit reconcile` hands it to review ' +
    '(`pesakit review`) for a person to decide.',
};

/** `airtime.bulkPurchase`: the bulk engine with airtime's rows, purchase and wallet. */
export function startBulkPurchase(
  context: ClientContext,
  airtime: AirtimeForBulk,
  source: AirtimeBulkSource,
  options: AirtimeBulkOptions = {},
): AirtimeBulkPurchase {
  return new BulkBatch<AirtimeBulkResult>(async (batch) => {
    const via = options.via ?? 'purchase';
    if (via !== 'purchase' && via !== 'bulkpayment') {
      throw new RequestValidationError('airtimeBulkPurchase', {
        via: ["The via option must be 'purchase' or 'bulkpayment'."],
      });
    }
    const result = await runBulk(context, batch, {
      product: airtimeBulkRows,
      send: (row, sendOptions) =>
        airtime.purchase({ msisdn: row.msisdn, amount: row.amount }, sendOptions),
      source: source as BulkSource,
      options,
      float:
        options.checkBalance === false
          ? undefined
          : {
              balance: async () => (await airtime.user()).user.wallet.balance,
              cost: (row) => cents(row.amount),
            },
      ...(via === 'bulkpayment'
        ? {
            sendLeft: async (batchId, rows, onRow) => {
              const { signal, timeoutMs } = options;
              await sendBulkPayment({ context, batchId, rows, signal, timeoutMs, onRow });
              return undefined;
            },
          }
        : {}),
    });
    return { ...result, via };
  });
}
