import { RequestValidationError } from '../../errors/request-validation-error.js';
import type { TransactionRecord } from '../../references/index.js';
import type { WalletReservation } from '../../references/wallet-float.js';
import { AIRTIME_BULK_MAX_FILE_BYTES } from '../../schemas/airtime-bulk.js';
import type { DisbursementRequest } from '../../schemas/disbursement.js';
import {
  PAYOUT_BULK_MAX_ROWS,
  type PayoutBulkRow,
  payoutBulkRowSchema,
} from '../../schemas/payout-bulk.js';
import { validateBulkRows } from '../../spreadsheets/index.js';
import type { ClientContext } from '../client-context.js';
import type { MoneyMovementOptions } from '../move-money.js';
import type { BulkProduct } from './bulk-product.js';
import { BulkBatch, runBulk } from './bulk-run.js';
import type { BulkSource } from './load-rows.js';
import { cents } from './totals.js';
import type { DisbursementBulkOptions, DisbursementBulkResult } from './types.js';

/** A batch of payouts in progress: the promise of its result, with `row` and `progress` events. */
export type DisbursementBulkPay = BulkBatch<DisbursementBulkResult>;

/** What `bulkPay` takes: rows, a file path, or the bytes of an .xlsx/.csv file. */
export type DisbursementBulkSource = readonly PayoutBulkRow[] | string | Uint8Array;

/**
 * What the batch needs from the Disbursement resource: `pay` (write-ahead; a row's float is held
 * in its intent's own write: `Disbursement.pay` takes it beyond its public signature) and the
 * wallet.
 */
export interface DisbursementForBulk {
  pay(
    request: DisbursementRequest,
    options: MoneyMovementOptions,
    reservation: WalletReservation | undefined,
  ): Promise<{ record: TransactionRecord; response: { message: string } }>;
  user(): Promise<{ wallet: { balance: number } }>;
}

/**
 * The charge pesakit assumes for the float check: 1 % rounded up to a whole shilling, at least
 * 100 TZS — the sandbox's rule; the platform publishes none. `charges` overrides it.
 */
export function estimatedCharge(amount: number): number {
  return Math.max(100, Math.ceil(Math.round(amount * 1e4) / 1e6));
}

const columns = {
  msisdn: 'text',
  amount: 'number',
  name: 'text',
  reference: 'optional text',
} as const;

/**
 * Payout rows: `msisdn, amount, name, reference?`, each one `disbursement.pay`; a row repeating an
 * earlier one is refused (it would be paid twice).
 */
export const payoutBulkRows: BulkProduct = {
  operation: 'disbursementBulkPay',
  prefix: 'payout',
  flow: 'disbursement',
  columns,
  maxRows: PAYOUT_BULK_MAX_ROWS,
  maxFileBytes: AIRTIME_BULK_MAX_FILE_BYTES,
  validate: (rows) => validateBulkRows(rows, payoutBulkRowSchema, columns, true),
  openAfterAnswer: 'pending',
  settledBy:
    '`pesakit reconcile` (or `disbursement.status(ref)`) settles it from the payout history.',
};

/**
 * `disbursement.bulkPay`: the bulk engine with payout rows, `pay` and the float: each row holds
 * its amount plus charge in the store, keyed by the disbursement account, until it is final.
 */
export function startBulkPay(
  context: ClientContext,
  disbursement: DisbursementForBulk,
  source: DisbursementBulkSource,
  options: DisbursementBulkOptions = {},
): DisbursementBulkPay {
  return new BulkBatch<DisbursementBulkResult>(async (batch) => {
    const charge = chargeOf(options.charges);
    // The float is the wallet of the account the payouts leave from.
    const account = context.credentials.disbursement?.email ?? 'disbursement';
    return runBulk(context, batch, {
      product: payoutBulkRows,
      send: async (row, { reservation, ...payOptions }) => {
        const request = { msisdn: row.msisdn, amount: row.amount, name: row.name ?? '' };
        const { record, response } = await disbursement.pay(request, payOptions, reservation);
        return { record, message: response.message };
      },
      source: source as BulkSource,
      options,
      partial: options.partial,
      float: {
        balance: async () => (await disbursement.user()).wallet.balance,
        cost: (row) => cents(row.amount) + cents(charge(row.amount)),
        account,
        ready: async () => {
          await context.transport.authenticate('disbursement', options.signal);
        },
      },
    });
  });
}

function chargeOf(charges: DisbursementBulkOptions['charges']): (amount: number) => number {
  if (charges === undefined) return estimatedCharge;
  return (amount) => {
    const charge = typeof charges === 'function' ? charges(amount) : undefined;
    if (typeof charge === 'number' && Number.isFinite(charge) && charge >= 0) return charge;
    throw new RequestValidationError('disbursementBulkPay', {
      charges: [
        `The charges function returned ${String(charge)} for ${amount} TZS; it must be a function returning a finite number of TZS, 0 or more.`,
      ],
    });
  };
}
