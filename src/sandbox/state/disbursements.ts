import type { disbursementPaymentSchema } from '../../schemas/disbursement.js';
import type { Provider } from '../../schemas/provider.js';
import type { WireRecord } from './wire-record.js';

/** A payout: pending while the gateway is asked, then completed (or failed, our decision). */
export type DisbursementRecord = WireRecord<typeof disbursementPaymentSchema> & {
  readonly accountId: number;
  readonly charge: number;
  readonly provider: Provider;
  message: string;
  updated_at: string;
};

export class DisbursementBook {
  readonly #records: DisbursementRecord[] = [];
  /** Every txnid and refid handed out: a payout checks its new references against a set. */
  readonly #references = new Set<string>();
  add(record: DisbursementRecord): void {
    this.#records.push(record);
    this.#references.add(record.txnid);
    this.#references.add(record.refid);
  }

  get records(): readonly DisbursementRecord[] {
    return this.#records;
  }

  isTaken(value: string): boolean {
    return this.#references.has(value);
  }

  /** One page of a user's payouts, latest first (spec), with the user's total. */
  pageOfAccount(
    accountId: number,
    skip: number,
    count: number,
  ): { records: DisbursementRecord[]; total: number } {
    const own = this.#records.filter((record) => record.accountId === accountId).reverse();
    return { records: own.slice(skip, skip + count), total: own.length };
  }
}

export function disbursementView(record: DisbursementRecord) {
  const { accountId, updated_at, ...view } = record;
  return view;
}
