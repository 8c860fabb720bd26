import type { Ledger } from '../ledger/ledger.js';
import type { CollectionSettlement } from '../ledger/settle-collection.js';
import type { ReferenceStore, References, TransactionRecord } from '../references/index.js';
import type { ReviewVerdict } from '../references/review.js';
import type { LeasedRecord } from '../references/schedule/types.js';
import type { LeaseMargin } from './lease-margin.js';
import type { ResolvedOptions } from './options.js';
import type { PayoutHistory } from './payout-history.js';
import type { Platform } from './platform.js';

/** The pulls one pass's checks share, each once per pass. */
export interface PassState {
  payouts: PayoutHistory;
  /** The airtime wallet, pulled once per pass; past `usableUntil`, LeaseMarginSpent. */
  airtimeUser(usableUntil: number): Promise<unknown>;
}

/** How one check ended. */
export type CheckOutcome =
  | {
      kind: 'settled' | 'failed' | 'review';
      record: TransactionRecord;
      changed: boolean;
      verdict?: ReviewVerdict;
      answer?: unknown;
    }
  | {
      kind: 'pending';
      pulled: boolean;
      answer?: unknown;
      /** Overrides the schedule: the record is not worth a look before this. */
      dueAt?: Date;
      record?: TransactionRecord;
    }
  | { kind: 'already_final'; record: TransactionRecord };

export interface CheckContext {
  /** For reads; every move goes through `ledger`. */
  store: ReferenceStore;
  /** Fenced by the lease: a worker whose lease was taken over writes nothing. */
  ledger: Ledger;
  leased: LeasedRecord;
  record: TransactionRecord;
  now: Date;
  /** From `margin.until` no request may be sent for this record: its lease may be another's. */
  margin: LeaseMargin;
  options: ResolvedOptions;
  platform: Platform;
  pass: PassState;
}

/** What writing a check's outcome needs: a payout status call has no lease or pass of its own. */
export type RecordCheck = Pick<CheckContext, 'store' | 'ledger' | 'record'>;

/** The collection settlement's outcome as a check's; undefined while still open. */
export function collectionOutcome(
  result: CollectionSettlement,
  answer: unknown,
): CheckOutcome | undefined {
  switch (result.outcome) {
    case 'paid':
      return { kind: 'settled', record: result.record, changed: result.changed, answer };
    case 'failed':
      return { kind: 'failed', record: result.record, changed: result.changed, answer };
    case 'review': {
      const { record, changed, verdict } = result;
      return { kind: 'review', record, changed, verdict, answer };
    }
    case 'already_final':
      return { kind: 'already_final', record: result.record };
    default:
      return undefined;
  }
}

/**
 * Writes a final state (fenced) and says how the check ended; with `claim`, the platform's
 * references in the same commit (another record owning one → `ReferenceConflictError`).
 */
export async function settle(
  ctx: RecordCheck,
  to: 'success' | 'failed',
  details: { payload?: unknown; reason?: string },
  claim?: References,
): Promise<CheckOutcome> {
  const { record, changed } = await move(ctx, to, details, claim);
  if (!changed) return { kind: 'already_final', record };
  const kind = to === 'success' ? 'settled' : 'failed';
  return { kind, record, changed, answer: details.payload };
}

/** Hands the record to a person (fenced) with the verdict and its evidence. */
export async function review(ctx: RecordCheck, verdict: ReviewVerdict): Promise<CheckOutcome> {
  const { record, changed } = await ctx.ledger.move(ctx.record.merchantReference, {
    to: 'needs_review',
    review: verdict,
    payload: verdict.evidence ?? null,
  });
  if (!changed) return { kind: 'already_final', record };
  return { kind: 'review', record, changed: true, verdict, answer: verdict.evidence };
}

/**
 * An `unknown` record the platform shows in progress goes back to `pending` (fenced); with
 * `claim`, the platform's references are attached in the same commit, whatever the status.
 */
export async function backToPending(
  ctx: RecordCheck,
  answer: unknown,
  claim?: References,
): Promise<TransactionRecord> {
  if (ctx.record.status !== 'unknown' && claim === undefined) return ctx.record;
  const to = ctx.record.status === 'unknown' ? 'pending' : ctx.record.status;
  const details = { payload: answer, reason: 'The platform shows the transaction in progress.' };
  return (await move(ctx, to, details, claim)).record;
}

function move(
  ctx: RecordCheck,
  to: TransactionRecord['status'],
  details: { payload?: unknown; reason?: string },
  claim: References | undefined,
) {
  return ctx.ledger.move(ctx.record.merchantReference, {
    to,
    ...details,
    ...(claim === undefined ? {} : { references: claim }),
  });
}
