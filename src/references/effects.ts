import type { Product } from '../schemas/product.js';
import type { EffectStatus, TransactionRecord } from './record.js';

/** A claimed effect: run the handler, then `effects.complete` or `effects.fail` with the token. */
export interface EffectClaim {
  record: TransactionRecord;
  token: string;
}

export interface ClaimEffectsOptions {
  leaseMs: number;
  /** @default 50 */
  limit?: number;
  /** Claim only this record's effect (right after winning its transition). */
  merchantReference?: string;
  /** Claim only effects of these kinds (those the caller has handlers for). @default every kind */
  handles?: readonly EffectKind[];
}

export interface FailEffectOptions {
  /** Stored: never a secret. */
  error: string;
  /** When to try again; `null` gives up and dead-letters the effect. */
  retryAt: Date | null;
}

/** The handler an effect runs: `onPaid`, `onFailed`, `onSent`, `onNotSent` or `onReview`. */
export type EffectKind = 'paid' | 'failed' | 'sent' | 'not_sent' | 'review';

const out: readonly Product[] = ['disbursement', 'airtime'];
/** Each kind's handler, and its records in the columns a store filters claims on. */
export const effectKinds = {
  paid: { handler: 'onPaid', status: 'success', products: ['collection'] },
  failed: { handler: 'onFailed', status: 'failed', products: ['collection'] },
  sent: { handler: 'onSent', status: 'success', products: out },
  not_sent: { handler: 'onNotSent', status: 'failed', products: out },
  review: { handler: 'onReview', status: 'needs_review', products: ['collection', ...out] },
} as const satisfies Record<
  EffectKind,
  { handler: string; status: TransactionRecord['status']; products: readonly Product[] }
>;

export const effectKindNames = Object.keys(effectKinds) as [EffectKind, ...EffectKind[]];

export function isOfKind(record: Pick<TransactionRecord, 'product' | 'status'>, kind: EffectKind) {
  const { status, products }: { status: string; products: readonly Product[] } = effectKinds[kind];
  return status === record.status && products.includes(record.product);
}

/**
 * The effect a record in this status has; none for an open record, nor for a settled airtime
 * recharge (the merchant's own wallet top-up: an event, no handler, so never due).
 */
export function effectKindOf(
  record: Pick<TransactionRecord, 'product' | 'flow' | 'status'>,
): EffectKind | undefined {
  if (record.status !== 'needs_review' && record.flow === 'airtime_recharge') return undefined;
  return effectKindNames.find((kind) => isOfKind(record, kind));
}

/** Claim due effects under a lease, then complete or fail them with its token (else `false`). */
export interface EffectOutbox {
  /** Due (or expired running) effects become `running` under a fresh token; never shared. */
  claim(options: ClaimEffectsOptions): Promise<EffectClaim[]>;
  complete(merchantReference: string, token: string): Promise<boolean>;
  /** Due again at `retryAt`, or `dead` when it is null. */
  fail(merchantReference: string, token: string, options: FailEffectOptions): Promise<boolean>;
  /**
   * A person's retry of a `dead` effect: `due` now with a fresh count of attempts (so the
   * runner's backoff and its last attempt start over); the last error stays until the next run.
   * Any other effect status → `StoreInputError` naming it. The handler runs where it always
   * does (the receiver's or reconciler's effect runner), never in the caller.
   */
  retry(merchantReference: string): Promise<TransactionRecord>;
  list(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    options?: { limit?: number; handles?: readonly EffectKind[] },
  ): Promise<TransactionRecord[]>;
}
