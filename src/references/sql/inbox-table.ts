import type { Selectable } from 'kysely';
import type { CallbackClaim, InboxEntry, InboxEntryStatus } from '../inbox/types.js';
import { fromInstant, type InboxTable } from './table.js';

export const inboxTable = 'pesakit_callback_inbox';

export function toInboxEntry(row: Selectable<InboxTable>): InboxEntry {
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
    dueAt: fromInstant(row.due_at),
    leaseUntil: fromInstant(row.lease_until),
    lastError: row.last_error,
    outcome: row.outcome,
    receivedAt: fromInstant(row.received_at),
    processedAt: fromInstant(row.processed_at),
  };
}
