import type { Product } from '../../schemas/product.js';
import type { AirtimePaymentRecord, RechargeRecord } from './airtime.js';
import type { CollectionRecord } from './collections.js';
import type { DisbursementRecord } from './disbursements.js';
import type { LogPage, PagedLog } from './paged-log.js';

/** One transaction of any product, in the order the sandbox created them. */
export type JournalEntry =
  | { kind: 'collection'; merchantReference: string | null; record: CollectionRecord }
  | { kind: 'airtime_payment'; merchantReference: string | null; record: AirtimePaymentRecord }
  | { kind: 'recharge'; merchantReference: string | null; record: RechargeRecord }
  | { kind: 'payout'; merchantReference: string | null; record: DisbursementRecord };

export type TransactionKind = JournalEntry['kind'];

const productOf: Record<TransactionKind, Product> = {
  collection: 'collection',
  airtime_payment: 'airtime',
  recharge: 'airtime',
  payout: 'disbursement',
};

/** A transaction as `GET _control/transactions` lists it: every reference kept apart. */
export interface TransactionView {
  seq: number;
  product: Product;
  kind: TransactionKind;
  /** The `x-pesakit-merchant-reference` it was created with (a bulk row's own); null if none. */
  merchant_reference: string | null;
  status: string;
  amount: number;
  /** What the engine reported paid (collections); null otherwise or until settled. */
  paid_amount: number | null;
  msisdn: string | null;
  controlNumber: string | null;
  reference: string | null;
  external_reference: string | null;
  txnid: string | null;
  refid: string | null;
  /** The disbursement charge (TZS), payouts only. */
  charge: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * Every transaction of every product, by creation. Records are never removed until a reset, so
 * an offset is a stable cursor; the entries point at the live records, so the listing is current.
 */
export class TransactionJournal {
  readonly #entries: JournalEntry[] = [];

  add(entry: JournalEntry): void {
    this.#entries.push(entry);
  }

  get size(): number {
    return this.#entries.length;
  }

  page(after = 0, limit = 1000, kind?: TransactionKind): LogPage<TransactionView> {
    const items: TransactionView[] = [];
    let index = Math.max(0, after);
    for (; index < this.#entries.length && items.length < limit; index += 1) {
      const entry = this.#entries[index]!;
      if (kind === undefined || entry.kind === kind) items.push(view(entry, index + 1));
    }
    const more = index < this.#entries.length;
    return { items, next: more ? index : null, total: this.#entries.length, dropped: 0 };
  }
}

function view(entry: JournalEntry, seq: number): TransactionView {
  const base = {
    seq,
    product: productOf[entry.kind],
    kind: entry.kind,
    merchant_reference: entry.merchantReference,
    status: entry.record.status,
    amount: entry.record.amount,
    paid_amount: null,
    msisdn: entry.record.msisdn,
    controlNumber: null,
    reference: null,
    external_reference: null,
    txnid: null,
    refid: null,
    charge: null,
    created_at: entry.record.created_at,
    updated_at: entry.record.updated_at,
  };
  switch (entry.kind) {
    case 'collection': {
      const { record } = entry;
      return {
        ...base,
        paid_amount: record.paid_amount,
        controlNumber: record.controlNumber,
        reference: record.reference,
        external_reference: record.external_reference,
      };
    }
    case 'airtime_payment':
      return { ...base, reference: entry.record.reference };
    case 'recharge':
      return { ...base, controlNumber: entry.record.controlNumber };
    case 'payout':
      return {
        ...base,
        txnid: entry.record.txnid,
        refid: entry.record.refid,
        charge: entry.record.charge,
      };
  }
}

/** One money request the sandbox acted on: `GET _control/requests`. */
export interface ActedRequest {
  readonly at: string;
  readonly product: Product;
  /** What was done: `mno`, `bank`, `secure`, `pay_mobile`, `checkout_mno`, `checkout_card`, `airtime_purchase`, `airtime_recharge`, `disbursement`. */
  readonly operation: string;
  readonly merchant_reference: string | null;
  readonly amount: number;
  readonly msisdn: string | null;
  /** The transaction's status when the answer was made. */
  readonly outcome: string;
  /** The platform reference the transaction is known by (control number, refid, …). */
  readonly reference: string;
}

export type RequestLog = PagedLog<ActedRequest>;
