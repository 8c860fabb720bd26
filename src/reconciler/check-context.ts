import type { ReferenceStore, TransactionRecord } from '../references/index.js';
import type { LeasedRecord } from '../references/schedule/types.js';
import { moveToReview, type ReviewVerdict } from './foundation.js';
import type { ResolvedOptions } from './options.js';
import type { PayoutHistory } from './payout-history.js';
import type { Platform } from './platform.js';

/** What one pass shares between its checks: each shared pull happens once per pass. */
export interface PassState {
  payouts: PayoutHistory;
  /** The airtime account (wallet balance), pulled once per pass. */
  airtimeUser(): Promise<unknown>;
}

/** How one check ended. */
export type CheckOutcome =
  | {
      kind: 'settled' | 'failed' | 'review';
      record: TransactionRecord;
      /** True when this check made the change (it won the claim). */
      changed: boolean;
      verdict?: ReviewVerdict;
      /** What the platform answered (kept as evidence). */
      answer?: unknown;
    }
  | {
      kind: 'pending';
      /** True when the platform was asked (the check counts as an attempt). */
      pulled: boolean;
      answer?: unknown;
      /** Overrides the schedule: the record is not worth a look before this. */
      dueAt?: Date;
      /** The record as it stands after this check (e.g. moved unknown → pending). */
      record?: TransactionRecord;
    }
  | { kind: 'already_final'; record: TransactionRecord };

/** What a strategy gets for one leased record. */
export interface CheckContext {
  /** The store, fenced by this check's lease. */
  store: ReferenceStore;
  leased: LeasedRecord;
  record: TransactionRecord;
  now: Date;
  options: ResolvedOptions;
  platform: Platform;
  pass: PassState;
}

/** Writes a final state (fenced) and says how the check ended. */
export async function settle(
  ctx: CheckContext,
  to: 'success' | 'failed',
  details: { payload?: unknown; reason?: string },
): Promise<CheckOutcome> {
  const { record, changed } = await ctx.store.transition(ctx.record.merchantReference, to, details);
  if (!changed && record.status !== to) return { kind: 'already_final', record };
  return {
    kind: to === 'success' ? 'settled' : 'failed',
    record,
    changed,
    answer: details.payload,
  };
}

/** Hands the record to a person (fenced) with the verdict and its evidence. */
export async function review(ctx: CheckContext, verdict: ReviewVerdict): Promise<CheckOutcome> {
  const { record, changed } = await moveToReview(ctx.store, ctx.record.merchantReference, verdict);
  return { kind: 'review', record, changed, verdict, answer: verdict.evidence };
}

/** An `unknown` record the platform shows in progress goes back to `pending` (fenced). */
export async function backToPending(
  ctx: CheckContext,
  answer: unknown,
): Promise<TransactionRecord> {
  if (ctx.record.status !== 'unknown') return ctx.record;
  const { record } = await ctx.store.transition(ctx.record.merchantReference, 'pending', {
    payload: answer,
    reason: 'The platform shows the transaction in progress.',
  });
  return record;
}
