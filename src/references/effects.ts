import type { TransactionRecord } from './types.js';

/**
 * The merchant's side effect of a final transition (crediting an order on `success`, releasing
 * it on `failed`, alerting on `needs_review`), tracked on the record like an outbox entry.
 *
 * The transition that makes a record final also makes its effect `due`, in the same write: the
 * one caller that wins the transition owns the effect, and a process that dies before running
 * it leaves it `due` (or `running` with an expired lease) for another to pick up.
 *
 * - `none` — nothing to do (the record is not final yet).
 * - `due` — the handler must run, at or after `dueAt`.
 * - `running` — claimed by a worker holding a lease; an expired lease makes it claimable again.
 * - `done` — the handler completed.
 * - `dead` — the handler kept failing; a person must look (`listEffects('dead')`).
 */
export type EffectStatus = 'none' | 'due' | 'running' | 'done' | 'dead';

export const effectStatuses: readonly EffectStatus[] = ['none', 'due', 'running', 'done', 'dead'];

export interface EffectState {
  status: EffectStatus;
  /** How many times a handler was started for this record. */
  attempts: number;
  /** When the effect is due (again); null when not due. */
  dueAt: Date | null;
  /** The last handler failure's message. */
  lastError: string | null;
  completedAt: Date | null;
}

/** A claimed effect: run the handler, then `completeEffect` or `failEffect` with the token. */
export interface EffectClaim {
  record: TransactionRecord;
  /** Fences the claim: a worker whose lease expired cannot complete or fail it any more. */
  token: string;
}

/** What `claimEffects()` takes. */
export interface ClaimEffectsOptions {
  /** How long the claim is exclusive; past it, another worker may claim the effect again. */
  leaseMs: number;
  /** @default 50 */
  limit?: number;
  /** Claim only this record's effect (right after winning its transition). */
  merchantReference?: string;
}

/** What `failEffect()` takes. */
export interface FailEffectOptions {
  /** The handler's error, as a message (never a secret: it is stored). */
  error: string;
  /** When to try again; `null` gives up and dead-letters the effect. */
  retryAt: Date | null;
}

/** Statuses whose reaching makes an effect due. */
export const effectfulStatuses = ['success', 'failed', 'needs_review'] as const;

/**
 * The effect outbox kept on each record: claim due effects under a lease, then complete or
 * fail them with the lease's token. One part of `ReferenceStore`; `EffectRunner` needs only
 * this.
 */
export interface EffectOutbox {
  /**
   * Claims due effects (and running ones whose lease expired) for this worker: each becomes
   * `running` under a fresh token for `leaseMs`, its attempts counted. On PostgreSQL concurrent
   * claimers never get the same record (`FOR UPDATE SKIP LOCKED`).
   */
  claimEffects(options: ClaimEffectsOptions): Promise<EffectClaim[]>;
  /** Marks the effect done — only if `token` still holds the lease (`false` otherwise). */
  completeEffect(merchantReference: string, token: string): Promise<boolean>;
  /**
   * Records a failed handler run — only if `token` still holds the lease (`false` otherwise):
   * due again at `retryAt`, or `dead` when it is null.
   */
  failEffect(
    merchantReference: string,
    token: string,
    options: FailEffectOptions,
  ): Promise<boolean>;
  /** Records whose effect is in `status`, oldest due first. */
  listEffects(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    options?: { limit?: number },
  ): Promise<TransactionRecord[]>;
}
