import type { Environment } from '../core/endpoints.js';
import type { Product } from '../schemas/product.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import type { Resolution, ReviewVerdict } from './review.js';

/**
 * The platform account a record was sent with, for `record.product`. The platform shows a
 * transaction only to the account that made it (a 404 to any other, and no row in another
 * account's payout history), and a sandbox and production are two platforms: a record of
 * another account or environment cannot be pulled, only misread as "not there yet".
 */
export interface RecordAccount {
  /** `sandbox` or `production`: the client's `environment`. */
  readonly environment: Environment;
  /**
   * The email the product's credentials log in with, lower-cased; `null` when the request
   * carried no login (a token set with `setToken`, or a route that takes none: secure checkout,
   * pay_mobile), so that any account of the environment may pull it. Never a secret.
   */
  readonly login: string | null;
}

/** Which of the platform's operations started the transaction. */
export type Flow =
  | 'mno'
  | 'bank'
  | 'secure'
  | 'pay_mobile'
  | 'checkout_mno'
  | 'airtime_purchase'
  | 'airtime_recharge'
  | 'disbursement';

/** The platform's references for one transaction, each kind kept apart (spec general rule 9). */
export interface References {
  controlNumber?: string;
  paymentReference?: string;
  externalReference?: string;
  txnid?: string;
  refid?: string;
}

export type PlatformReferenceField = keyof References;

export type ReferenceField = 'merchantReference' | PlatformReferenceField;

/** One transaction as the store remembers it. Records returned by a store are copies. */
export interface TransactionRecord {
  merchantReference: string;
  product: Product;
  flow: Flow;
  /** TZS, at most two decimals; stored exactly (whole cents). */
  amount: number;
  msisdn: string | null;
  /** The mobile operator (from the MSISDN, e.g. `vodacom`) or a callback's provider name. */
  provider: string | null;
  status: TransactionStatus;
  statusReason: string | null;
  controlNumber: string | null;
  paymentReference: string | null;
  externalReference: string | null;
  txnid: string | null;
  refid: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the record left `initiating`. */
  attemptedAt: Date | null;
  /** When the record became `success` or `failed` (by an answer, a pull or a person). */
  finalAt: Date | null;
  lastCheckedAt: Date | null;
  checkCount: number;
  lastPayload: unknown;
  metadata: Record<string, string>;
  /**
   * The account and environment the record was sent with; a reconciler, receiver or status
   * call of another one does not pull it (`not_visible`). `null`: written before records knew
   * their account, treated as every client's.
   */
  account: RecordAccount | null;
  /** Why the record went to `needs_review` (kept after it is resolved). */
  review: ReviewVerdict | null;
  resolution: Resolution | null;
  effect: EffectState;
}

/**
 * The handler's run for a final transition, an outbox entry made `due` in the same write, so a
 * process dying before the run leaves it for another. `dead` waits for a person.
 */
export type EffectStatus = 'none' | 'due' | 'running' | 'done' | 'dead';

export const effectStatuses: readonly EffectStatus[] = ['none', 'due', 'running', 'done', 'dead'];

export interface EffectState {
  status: EffectStatus;
  attempts: number;
  dueAt: Date | null;
  lastError: string | null;
  completedAt: Date | null;
}
