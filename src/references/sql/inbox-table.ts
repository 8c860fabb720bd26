import type { ColumnType, Selectable } from 'kysely';
import type { CallbackClaim, InboxEntry, InboxEntryStatus } from '../inbox/types.js';

type Instant = ColumnType<Date | string, Date | string, Date | string>;

/** One row of `pesakit_callback_inbox`. */
export interface InboxTable {
  id: string;
  /** Unique: the same callback twice is one row (its `duplicates` counts the rest). */
  dedup_key: string;
  method: string;
  url: string;
  /** JSON text of the redacted headers. */
  headers: string;
  /** The raw body text. */
  body: string;
  /** JSON text of the parsed {@link CallbackClaim}. */
  claim: string;
  payment_reference: string;
  status: string;
  duplicates: number;
  attempts: number;
  due_at: Instant;
  lease_until: Instant | null;
  /** The fencing token of the current lease; NULL when nobody holds the entry. */
  lease_token: string | null;
  last_error: string | null;
  outcome: string | null;
  received_at: Instant;
  processed_at: Instant | null;
}

export const inboxTable = 'pesakit_callback_inbox';

export type InboxRow = Selectable<InboxTable>;

const instant = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export function toInboxEntry(row: InboxRow): InboxEntry {
  return {
    id: row.id,
    dedupKey: row.dedup_key,
    method: row.method,
    url: row.url,
    headers: JSON.parse(row.headers) as Record<string, string>,
    body: row.body,
    claim: JSON.parse(row.claim) as CallbackClaim,
    status: row.status as InboxEntryStatus,
    duplicates: Number(row.duplicates),
    attempts: Number(row.attempts),
    dueAt: instant(row.due_at),
    leaseUntil: row.lease_until === null ? null : instant(row.lease_until),
    lastError: row.last_error,
    outcome: row.outcome,
    receivedAt: instant(row.received_at),
    processedAt: row.processed_at === null ? null : instant(row.processed_at),
  };
}
