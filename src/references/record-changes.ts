import { InvalidTransitionError } from '../errors/invalid-transition-error.js';
import { ReferenceConflictError } from '../errors/reference-conflict-error.js';
import { type EffectState, effectfulStatuses } from './effects.js';
import type { ParsedTransition } from './input-rules.js';
import { canTransition } from './transitions.js';
import type { PlatformReferenceField, References, TransactionRecord } from './types.js';

/**
 * How a record changes, decided the same way by every store: the stores only differ in how
 * they read the record and write the change (a Map, or one SQL transaction).
 */

export const platformReferenceFields: readonly PlatformReferenceField[] = [
  'controlNumber',
  'paymentReference',
  'externalReference',
  'txnid',
  'refid',
];

/**
 * The references of `refs` that are new to `record`. A field the record already holds with
 * another value is a conflict: references never change once known (DESIGN.md decision 2).
 */
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

/** The conflict to report when `value` already belongs to `owner`. */
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
  'status' | 'statusReason' | 'updatedAt' | 'attemptedAt' | 'lastPayload' | 'review' | 'effect'
>;

/**
 * The change a transition makes, or `undefined` when the record already has that status (a
 * repeated callback, a second pull: nothing to do). A move not allowed is refused.
 * `attemptedAt` is set when the record leaves `initiating`: that is when the send ended.
 */
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
    lastPayload: transition.hasPayload ? transition.payload : record.lastPayload,
    review: transition.review ?? record.review,
    // The winning transition and its effect are one write: whoever moved the record owns the
    // handler run, and a crash right after leaves it due for another process.
    effect: (effectfulStatuses as readonly string[]).includes(transition.to)
      ? dueEffect(record.effect, now)
      : record.effect,
  };
}

/** The effect made due again, e.g. by a final transition or a person's resolution. */
export function dueEffect(previous: EffectState, now: Date): EffectState {
  return {
    status: 'due',
    attempts: previous.attempts,
    dueAt: now,
    lastError: null,
    completedAt: null,
  };
}

/** The effect of a record that never reached a final status. */
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
  decision: {
    outcome: 'success' | 'failed';
    note: string;
    by: string | null;
    at: Date | undefined;
  },
  now: Date,
): Pick<TransactionRecord, 'status' | 'statusReason' | 'updatedAt' | 'resolution' | 'effect'> {
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
    resolution: { status: decision.outcome, note: decision.note, by: decision.by, at },
    effect: dueEffect(record.effect, now),
  };
}
