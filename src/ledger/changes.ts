import { InvalidTransitionError } from '../errors/invalid-transition-error.js';
import { effectKindOf } from '../references/effects.js';
import type { ParsedTransition } from '../references/input-rules.js';
import type { TransactionRecord } from '../references/record.js';
import { canTransition, isFinalStatus } from '../references/transitions.js';
import type { RecordChange } from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';

/**
 * What a move to `transition.to` changes on `record`: `undefined` when the record is in that
 * status already (a repeated callback: nothing to do), `'refused'` when the transitions do not
 * lead there (another path got there first, or it is final).
 */
export function changeFor(
  record: TransactionRecord,
  transition: ParsedTransition,
): RecordChange | 'refused' | undefined {
  if (record.status === transition.to) return undefined;
  if (!canTransition(record.status, transition.to)) return 'refused';
  return {
    status: transition.to,
    statusReason: transition.reason ?? null,
    provider: record.provider ?? transition.provider ?? null,
    ...(transition.review === undefined ? {} : { review: transition.review }),
    ...(transition.hasPayload ? { lastPayload: transition.payload } : {}),
    ...(transition.at === undefined ? {} : { at: transition.at }),
    attempted: record.status === 'initiating',
    final: isFinalStatus(transition.to),
    // One commit with the status: a crash right after leaves the effect due for another worker.
    effect: effectKindOf({ ...record, status: transition.to }) ? 'due' : 'kept',
  };
}

/** A person's decision on a record in `needs_review`: the note kept, the effect due again. */
export function resolutionFor(
  record: TransactionRecord,
  decision: {
    outcome: 'success' | 'failed';
    note: string;
    by: string | null;
    at?: Date | undefined;
  },
): RecordChange {
  if (record.status !== 'needs_review') {
    throw new InvalidTransitionError({
      merchantReference: record.merchantReference,
      from: record.status,
      to: decision.outcome,
      resolving: true,
    });
  }
  const { outcome, note, by, at } = decision;
  const when = at === undefined ? {} : { at };
  return {
    status: outcome,
    statusReason: `resolved by a person: ${note}`,
    resolution: { status: outcome, note, by, ...when },
    ...when,
    attempted: false,
    final: true,
    // A recharge's outcome runs no handler: its review effect is over, done.
    effect: effectKindOf({ ...record, status: outcome }) ? 'due' : 'done',
  };
}

/** A refused move as the error it is for one who asked for it directly (a person, a script). */
export function refusal(record: TransactionRecord, to: TransactionStatus): InvalidTransitionError {
  return new InvalidTransitionError({
    merchantReference: record.merchantReference,
    from: record.status,
    to,
  });
}
