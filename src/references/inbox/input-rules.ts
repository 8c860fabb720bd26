import { StoreInputError } from '../../errors/store-input-error.js';
import type {
  InboxAppend,
  InboxClaimOptions,
  InboxListOptions,
  InboxPruneOptions,
} from './types.js';
import { inboxEntryStatuses } from './types.js';

/** The longest request target an entry keeps (the receiver refuses a longer one with 414). */
export const maxInboxUrlLength = 8192;
/** The longest claimed `paymentReference` an entry keeps (the receiver answers 422). */
export const maxClaimedReferenceLength = 255;

/** Checks what the receiver appends; a bad value names the field and stores nothing. */
export function parseAppend(input: InboxAppend): InboxAppend {
  if (!isObject(input)) {
    throw invalid(
      'inbox.append',
      'entry',
      'The entry must be an object (what the receiver appends).',
    );
  }
  const text = (field: string, value: unknown, max = 1_000_000) => {
    if (typeof value !== 'string' || value.length === 0 || value.length > max) {
      throw invalid(
        'inbox.append',
        field,
        `The ${field} must be a non-empty string of at most ${max} characters.`,
      );
    }
    refuseNul('inbox.append', field, value);
  };
  text('dedupKey', input.dedupKey, 200);
  text('method', input.method, 16);
  text('url', input.url, maxInboxUrlLength);
  if (typeof input.body !== 'string') {
    throw invalid('inbox.append', 'body', 'The body must be the raw body as a string.');
  }
  refuseNul('inbox.append', 'body', input.body);
  if (typeof input.claim !== 'object' || input.claim === null) {
    throw invalid('inbox.append', 'claim', 'The claim must be the parsed callback claim.');
  }
  text('claim.paymentReference', input.claim.paymentReference, maxClaimedReferenceLength);
  if (input.claim.status !== 'success' && input.claim.status !== 'failed') {
    throw invalid(
      'inbox.append',
      'claim.status',
      "The claim.status must be 'success' or 'failed'.",
    );
  }
  if (
    input.receivedAt !== undefined &&
    !(input.receivedAt instanceof Date && !Number.isNaN(input.receivedAt.getTime()))
  ) {
    throw invalid('inbox.append', 'receivedAt', 'The receivedAt must be a valid Date.');
  }
  return input;
}

export function parseClaimOptions(options: InboxClaimOptions): { leaseMs: number; limit: number } {
  if (!isObject(options)) {
    throw invalid('inbox.claim', 'options', 'The options must be an object { leaseMs, limit? }.');
  }
  const { leaseMs, limit = 10 } = options;
  if (!Number.isInteger(leaseMs) || leaseMs <= 0) {
    throw invalid('inbox.claim', 'leaseMs', 'The leaseMs must be a positive whole number.');
  }
  if (!Number.isInteger(limit) || limit <= 0 || limit > 1000) {
    throw invalid('inbox.claim', 'limit', 'The limit must be a whole number from 1 to 1000.');
  }
  return { leaseMs, limit };
}

export function parseListOptions(options: InboxListOptions = {}): InboxListOptions & {
  limit: number;
} {
  if (!isObject(options)) {
    throw invalid('inbox.list', 'options', 'The options must be an object { status?, limit? }.');
  }
  const { limit = 100 } = options;
  if (!Number.isInteger(limit) || limit <= 0 || limit > 10_000) {
    throw invalid('inbox.list', 'limit', 'The limit must be a whole number from 1 to 10000.');
  }
  if (options.outcome !== undefined) {
    word('inbox.list', 'outcome', options.outcome);
  }
  if (options.status !== undefined && !inboxEntryStatuses.includes(options.status)) {
    throw invalid(
      'inbox.list',
      'status',
      `The status must be one of ${inboxEntryStatuses.join(', ')}.`,
    );
  }
  return { ...options, limit };
}

/** The entry an operation names (`get`), checked before any store reads it. */
export function parseEntryId(operation: string, id: unknown): string {
  return word(operation, 'id', id);
}

/** The entry and lease a fenced operation (`complete`, `reschedule`, `deadLetter`) names. */
export function parseHeld(operation: string, id: unknown, token: unknown): void {
  word(operation, 'id', id);
  word(operation, 'token', token);
}

export function parseOutcome(outcome: unknown): string {
  return word('inbox.complete', 'outcome', outcome);
}

export function parseReschedule(options: { dueAt: Date; error?: string }): {
  dueAt: Date;
  error: string | undefined;
} {
  if (!isObject(options)) {
    throw invalid(
      'inbox.reschedule',
      'options',
      'The options must be an object { dueAt, error? }.',
    );
  }
  const { dueAt } = options;
  if (!(dueAt instanceof Date) || Number.isNaN(dueAt.getTime())) {
    throw invalid('inbox.reschedule', 'dueAt', 'The dueAt must be a valid Date.');
  }
  const error =
    options.error === undefined ? undefined : storedError('inbox.reschedule', options.error);
  return { dueAt, error };
}

/**
 * The failure text kept on an entry is for a person to read, and the worker must be able to
 * record any failure — whatever an exception's message held: bounded, and a NUL (which
 * PostgreSQL text cannot hold) replaced rather than refused, as `failEffect` does.
 */
export function storedError(operation: string, error: unknown): string {
  if (typeof error !== 'string') {
    throw invalid(
      operation,
      'error',
      'The error must be a string (what went wrong, for a person).',
    );
  }
  return error.slice(0, 2000).replaceAll('\u0000', '\uFFFD');
}

/**
 * `olderThan` may not be later than `now`: entries finish at the latest now, so a later cut-off
 * deletes nothing more — it is a mistake (a duration passed where an instant belongs, a clock
 * far ahead), refused before anything is deleted.
 */
export function parsePruneOptions(
  options: InboxPruneOptions,
  now: Date,
): { olderThan: Date; limit: number } {
  if (!isObject(options)) {
    throw invalid('inbox.prune', 'options', 'The options must be an object { olderThan, limit? }.');
  }
  const { olderThan, limit = 10_000 } = options;
  if (!(olderThan instanceof Date) || Number.isNaN(olderThan.getTime())) {
    throw invalid('inbox.prune', 'olderThan', 'The olderThan must be a valid Date.');
  }
  if (olderThan.getTime() > now.getTime()) {
    throw invalid(
      'inbox.prune',
      'olderThan',
      `The olderThan must not be later than now (${now.toISOString()}); to delete every finished entry, pass the current time.`,
    );
  }
  if (!Number.isInteger(limit) || limit <= 0 || limit > 1_000_000) {
    throw invalid('inbox.prune', 'limit', 'The limit must be a whole number from 1 to 1000000.');
  }
  return { olderThan: new Date(olderThan), limit };
}

/**
 * An identifier-like value: a non-empty string of at most 200 characters without a NUL
 * (PostgreSQL text cannot hold one; refused in every inbox alike, not met as pg's own error).
 */
function word(operation: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
    throw invalid(
      operation,
      field,
      `The ${field} must be a non-empty string of at most 200 characters.`,
    );
  }
  refuseNul(operation, field, value);
  return value;
}

function refuseNul(operation: string, field: string, value: string): void {
  if (value.includes('\u0000')) {
    throw invalid(operation, field, `The ${field} must not contain a NUL character.`);
  }
}

/** JavaScript callers can pass anything: `null` must be refused, not read (a TypeError). */
function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function invalid(operation: string, field: string, message: string): StoreInputError {
  return new StoreInputError(operation, { [field]: [message] });
}
