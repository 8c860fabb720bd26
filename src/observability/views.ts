import type { Product } from '../schemas/product.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';

// The channels' views (a public contract): frozen, built only while someone subscribes, never a
// credential, a body, an error object (it may hold the platform's answer) or a full MSISDN.

/** What caused a record's status change. */
export type TransitionSource = 'answer' | 'callback' | 'pull' | 'review' | 'reconciler';

/** Every traced view: `errorType` is the thrown error's name, once the work failed. */
type TracedView = { readonly errorType: string | undefined };

/** `pesakit.operation`: one public call, e.g. `collection.initiateMno`, `disbursement.status`. */
export interface OperationView extends TracedView {
  readonly operation: string;
  readonly product: Product;
  /** Known once the call ends (a money call may make one up); undefined for calls without one. */
  readonly merchantReference: string | undefined;
  /** The record's status after the call; `unknown` for a lost answer; `error`; else undefined. */
  readonly outcome: string | undefined;
  /** The record's MSISDN, all but the last 3 digits masked. */
  readonly msisdn: string | undefined;
}

/** `pesakit.request`: one HTTP attempt. */
export interface RequestView extends TracedView {
  readonly method: 'GET' | 'POST';
  /** The endpoint's path template, e.g. `/api/sandbox/initiate-payment/mno/`; no query. */
  readonly urlTemplate: string;
  readonly serverAddress: string;
  readonly serverPort: number;
  /** 1 for the first attempt; retries and the repeat after a re-login count up. */
  readonly attempt: number;
  /** The HTTP status, once an answer arrived. */
  readonly status: number | undefined;
  /** The platform's `x-request-id`, when it sent one. */
  readonly requestId: string | undefined;
}

/** `pesakit.callback`: one inbox entry processed by a receiver. */
export interface CallbackView extends TracedView {
  readonly entryId: string;
  readonly product: 'collection';
  /** The callback URL's `pesakit_ref`: a hint, as the receiver treats it. */
  readonly merchantReference: string | undefined;
  /**
   * `paid`, `failed`, `review`, `orphan`, `already_final`, `not_visible`, `pending`,
   * `not_confirmed`, `rescheduled`.
   */
  readonly outcome: string | undefined;
}

/** `pesakit.reconcile`: one record checked by the reconciler. */
export interface ReconcileView extends TracedView {
  readonly merchantReference: string;
  readonly product: Product;
  /** `settled`, `failed`, `review`, `pending`; `already_final` when another path moved it first. */
  readonly outcome: string | undefined;
}

/** `pesakit:record:transition`: a status change, published once it is committed. */
export interface TransitionView {
  readonly merchantReference: string;
  readonly product: Product;
  readonly from: TransactionStatus;
  readonly to: TransactionStatus;
  readonly source: TransitionSource;
  readonly createdAt: Date;
}

/** `pesakit:callback:received`: a callback stored in the inbox, or counted as a duplicate. */
export interface CallbackReceivedView {
  readonly entryId: string;
  readonly duplicate: boolean;
}
