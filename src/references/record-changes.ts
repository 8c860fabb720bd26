import { InvalidTransitionError } from '../errors/invalid-transition-error.js';
import { ReferenceConflictError } from '../errors/reference-conflict-error.js';
import type { ParsedResolve } from './checked-store.js';
import { effectKindOf } from './effects.js';
import type { ParsedTransition } from './input-rules.js';
import type {
  EffectState,
  PlatformReferenceField,
  References,
  TransactionRecord,
} from './record.js';
import { canTransition, isFinalStatus } from './transitions.js';

// How a record changes, decided once for every store: they differ only in how they read and write.

export const platformReferenceFields: readonly PlatformReferenceField[] = [
  'controlNumber',
  'paymentReference',
  'externalReference',
  'txnid',
  'refid',
];

/** The references new to `record`; another value for a known one is a conflict. */
export function newReferences(record: TransactionRecord, refs: References): References {
  const fresh: References = {};
  for (const field of platformReferenceFields) {
    const attempted = refs[field];
    if (attempted === undefined) continue;
    const existing = record[field];
    if (existing === attempted) continue;
    if (existing !== null) {
      throw new ReferenceConflictError({
        merchantReference: record.merchantReference,
        field,
        existing,
        attempted,
      });
    }
    fresh[field] = attempted;
  }
  return fresh;
}

export function ownedElsewhere(
  merchantReference: string,
  field: PlatformReferenceField,
  value: string,
  owner: string,
): ReferenceConflictError {
  return new ReferenceConflictError({
    merchantReference,
    field,
    existing: undefined,
    attempted: value,
    ownedBy: owner,
  });
}

/** The fields a status change writes. */
export type StatusChange = Pick<
  TransactionRecord,
  | 'status'
  | 'statusReason'
  | 'updatedAt'
  | 'attemptedAt'
  | 'finalAt'
  | 'provider'
  | 'lastPayload'
  | 'review'
  | 'effect'
>;

/** `undefined` when the record already has that status (a repeated callback: nothing to do). */
export function statusChange(
  record: TransactionRecord,
  transition: ParsedTransition,
  now: Date,
): StatusChange | undefined {
  if (record.status === transition.to) return undefined;
  if (!canTransition(record.status, transition.to)) {
    throw new InvalidTransitionError({
      merchantReference: record.merchantReference,
      from: record.status,
      to: transition.to,
    });
  }
  const at = transition.at ?? now;
  return {
    status: transition.to,
    statusReason: transition.reason ?? null,
    updatedAt: now,
    attemptedAt: record.status === 'initiating' ? at : record.attemptedAt,
    finalAt: isFinalStatus(transition.to) ? at : null,
    provider: record.provider ?? transition.provider ?? null,
    lastPayload: transition.hasPayload ? transition.payload : record.lastPayload,
    review: transition.review ?? record.review,
    // One write with the transition: a crash right after leaves the effect due for another.
    effect: effectKindOf({ ...record, status: transition.to })
      ? dueEffect(record.effect, now)
      : record.effect,
  };
}

export function dueEffect(previous: EffectState, now: Date): EffectState {
  return {
    status: 'due',
    attempts: previous.attempts,
    dueAt: now,
    lastError: null,
    completedAt: null,
  };
}

export const noEffect: EffectState = {
  status: 'none',
  attempts: 0,
  dueAt: null,
  lastError: null,
  completedAt: null,
};

/** The change `store.resolve()` makes: the decision, the note, and the effect due again. */
export function resolution(
  record: TransactionRecord,
  decision: ParsedResolve,
  now: Date,
): Pick<
  TransactionRecord,
  'status' | 'statusReason' | 'updatedAt' | 'finalAt' | 'resolution' | 'effect'
> {
  if (record.status !== 'needs_review') {
    throw new InvalidTransitionError({
      merchantReference: record.merchantReference,
      from: record.status,
      to: decision.outcome,
      resolving: true,
    });
  }
  const at = decision.at ?? now;
  return {
    status: decision.outcome,
    statusReason: `resolved by a person: ${decision.note}`,
    updatedAt: now,
    finalAt: at,
    resolution: { status: decision.outcome, note: decision.note, by: decision.by, at },
    // A recharge's outcome runs no handler: its review effect is over, done.
    effect: effectKindOf({ ...record, status: decision.outcome })
      ? dueEffect(record.effect, now)
      : { ...record.effect, status: 'done', dueAt: null, completedAt: now },
  };
}
