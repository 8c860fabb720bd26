import { ReferenceConflictError } from '../errors/reference-conflict-error.js';
import type {
  EffectState,
  PlatformReferenceField,
  References,
  TransactionRecord,
} from './record.js';
import type { RecordChange } from './types.js';

// How a committed move lands on a record, the same in every store: they differ only in how they
// read and write. What the move is, the ledger decides.

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

/** The fields a move writes. */
export type AppliedChange = Pick<
  TransactionRecord,
  | 'status'
  | 'statusReason'
  | 'updatedAt'
  | 'attemptedAt'
  | 'finalAt'
  | 'provider'
  | 'lastPayload'
  | 'review'
  | 'resolution'
  | 'effect'
>;

/** The ledger's change as the record's fields, at the commit's time `now`. */
export function applyChange(
  record: TransactionRecord,
  change: RecordChange,
  now: Date,
): AppliedChange {
  const at = change.at ?? now;
  return {
    status: change.status,
    statusReason: change.statusReason,
    updatedAt: now,
    attemptedAt: change.attempted ? at : record.attemptedAt,
    finalAt: change.final ? at : null,
    provider: change.provider === undefined ? record.provider : change.provider,
    lastPayload: 'lastPayload' in change ? (change.lastPayload ?? null) : record.lastPayload,
    review: change.review === undefined ? record.review : change.review,
    resolution: change.resolution
      ? { ...change.resolution, at: change.resolution.at ?? now }
      : record.resolution,
    effect:
      change.effect === 'due'
        ? dueEffect(record.effect, now)
        : change.effect === 'done'
          ? { ...record.effect, status: 'done', dueAt: null, completedAt: now }
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
