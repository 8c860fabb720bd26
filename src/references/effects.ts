import type { TransactionRecord } from './types.js';

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

/** A claimed effect: run the handler, then `completeEffect` or `failEffect` with the token. */
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
}

export interface FailEffectOptions {
  /** Stored: never a secret. */
  error: string;
  /** When to try again; `null` gives up and dead-letters the effect. */
  retryAt: Date | null;
}

export const effectfulStatuses = ['success', 'failed', 'needs_review'] as const;

/** Claim due effects under a lease, then complete or fail them with its token (else `false`). */
export interface EffectOutbox {
  /** Due (or expired running) effects become `running` under a fresh token; never shared. */
  claimEffects(options: ClaimEffectsOptions): Promise<EffectClaim[]>;
  completeEffect(merchantReference: string, token: string): Promise<boolean>;
  /** Due again at `retryAt`, or `dead` when it is null. */
  failEffect(
    merchantReference: string,
    token: string,
    options: FailEffectOptions,
  ): Promise<boolean>;
  listEffects(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    options?: { limit?: number },
  ): Promise<TransactionRecord[]>;
}
