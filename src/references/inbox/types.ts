/**
 * The durable callback inbox: every platform callback is written here, raw, before the receiver
 * answers 200 (spec rule 8: answer quickly, work later), so a crash after the answer loses
 * nothing. Workers then claim entries with a lease and process them (DESIGN.md decision 5).
 */

/** What a callback claims, as parsed from its body and URL. Only a hint: it is verified by pull. */
export interface CallbackClaim {
  /** `true` in the body (`status: true`) → `success`, otherwise `failed`. */
  status: 'success' | 'failed';
  amount: number;
  /** The engine's `data.paymentReference`. */
  paymentReference: string;
  controlNumber: string | null;
  externalReference: string | null;
  /** The platform's `data.transactionID`. */
  transactionId: string | null;
  /** The `pesakit_ref` query parameter of the callback URL: a lookup hint, never proof. */
  merchantReferenceHint: string | null;
}

/** What the receiver appends for one received callback. */
export interface InboxAppend {
  /** hash(reference + claimed status + normalised body): equal callbacks share it. */
  dedupKey: string;
  method: string;
  url: string;
  /** Request headers with credentials already redacted. */
  headers: Record<string, string>;
  /** The body exactly as received (text). */
  body: string;
  claim: CallbackClaim;
  /** @default now */
  receivedAt?: Date;
}

/**
 * - `pending` — waiting for a worker (at or after `dueAt`).
 * - `processing` — leased by a worker until `leaseUntil`; after that, any worker may take it.
 * - `done` — processed; `outcome` says how it ended.
 * - `dead` — gave up after too many failed attempts; listed for a person to look at.
 */
export type InboxEntryStatus = 'pending' | 'processing' | 'done' | 'dead';

export const inboxEntryStatuses: readonly InboxEntryStatus[] = [
  'pending',
  'processing',
  'done',
  'dead',
];

/** One stored callback. Entries returned by an inbox are copies. */
export interface InboxEntry {
  id: string;
  dedupKey: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  claim: CallbackClaim;
  status: InboxEntryStatus;
  /** How many times the same callback arrived again after the first (not re-processed). */
  duplicates: number;
  /** How many times a worker took this entry. */
  attempts: number;
  dueAt: Date;
  leaseUntil: Date | null;
  lastError: string | null;
  /** How processing ended (`paid`, `failed`, `review`, `orphan`, ...), once `done` or `dead`. */
  outcome: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

/** An entry a worker holds; `token` fences its writes (a stale lease cannot write). */
export interface InboxClaim {
  entry: InboxEntry;
  token: string;
}

export interface InboxClaimOptions {
  /** How long the worker holds the entries; after that another worker may take them. */
  leaseMs: number;
  /** @default 10 */
  limit?: number;
}

/** How much work an inbox holds, as counted by `backlog()`. */
export interface InboxBacklog {
  /** `pending` entries due now (`dueAt <= now`): a worker may take them at once. */
  due: number;
  /** `processing` entries, by any worker, lease expired or not. */
  processing: number;
  /** `pending` entries due later (a scheduled re-check, a retry after a failure). */
  scheduled: number;
}

/**
 * What `prune()` deletes: entries that finished (`done` or `dead`) before `olderThan`, by their
 * finish time (`processedAt`), never by when they arrived — a claim re-checked for days is kept
 * its full retention after it finished. `pending` and `processing` entries are never deleted.
 */
export interface InboxPruneOptions {
  /** Entries that finished before this instant are deleted. Not later than now. */
  olderThan: Date;
  /**
   * The most entries this call deletes (it deletes them in statements of at most
   * {@link inboxPruneBatchSize}); `deleted === limit` means more may be left. From 1 to 1,000,000.
   * @default 10000
   */
  limit?: number;
}

/**
 * The most entries one prune statement deletes: each statement is its own short transaction,
 * so a big prune never holds the table's write lock (SQLite) or many row locks (PostgreSQL) for
 * long, and appends, claims and transitions get their turn between statements.
 */
export const inboxPruneBatchSize = 500;

export interface InboxListOptions {
  status?: InboxEntryStatus;
  outcome?: string;
  /** @default 100 */
  limit?: number;
}

/**
 * The inbox a `ReferenceStore` carries (`store.inbox`). Memory, SQLite and PostgreSQL share one
 * conformance suite (test/callbacks/inbox-conformance.ts).
 */
export interface CallbackInbox {
  /**
   * Appends the callback, or — when an entry with the same `dedupKey` exists — counts a
   * duplicate and appends nothing. Atomic across processes (a unique key in SQL).
   */
  append(input: InboxAppend): Promise<{ entry: InboxEntry; duplicate: boolean }>;
  /**
   * Takes up to `limit` entries that are due (`pending` with `dueAt <= now`, or `processing`
   * whose lease expired), oldest due first: sets `processing`, a fresh token and a lease,
   * `attempts + 1`. On PostgreSQL, concurrent workers never take the same entry
   * (`FOR UPDATE SKIP LOCKED`).
   */
  claim(options: InboxClaimOptions): Promise<InboxClaim[]>;
  /** Marks the entry `done` with its outcome. Fenced: false (nothing written) for a stale token. */
  complete(id: string, token: string, outcome: string): Promise<boolean>;
  /** Puts the entry back to `pending`, due at `dueAt`. Fenced like {@link complete}. */
  reschedule(id: string, token: string, options: { dueAt: Date; error?: string }): Promise<boolean>;
  /** Gives up: `dead`, listed by `list({ status: 'dead' })`. Fenced like {@link complete}. */
  deadLetter(id: string, token: string, error: string): Promise<boolean>;
  get(id: string): Promise<InboxEntry | undefined>;
  /** Counts the entries still to be processed, now (one consistent read on SQL). */
  backlog(): Promise<InboxBacklog>;
  /** Entries by status and/or outcome, oldest received first. */
  list(options?: InboxListOptions): Promise<InboxEntry[]>;
  /**
   * Deletes up to `limit` entries that finished (`done` or `dead`) before `olderThan`, oldest
   * finished first, in bounded batches; never a `pending` or `processing` entry, whatever its age.
   * Safe to run from several processes at once (a row is deleted once; PostgreSQL batches skip
   * rows another prune holds). A deleted entry's callback, if delivered again, is stored and
   * processed again — never credited twice (docs/callbacks.md, "Retention").
   */
  prune(options: InboxPruneOptions): Promise<{ deleted: number }>;
}
