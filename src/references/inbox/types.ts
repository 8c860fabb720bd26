/** What a callback claims: only a hint, verified by pull. */
export interface CallbackClaim {
  status: 'success' | 'failed';
  amount: number;
  paymentReference: string;
  controlNumber: string | null;
  externalReference: string | null;
  /** The platform's `data.transactionID`. */
  transactionId: string | null;
  /** The callback URL's `pesakit_ref`: a lookup hint, never proof. */
  merchantReferenceHint: string | null;
}

export interface InboxAppend {
  /** Equal callbacks share it. */
  dedupKey: string;
  method: string;
  url: string;
  /** Credentials already redacted. */
  headers: Record<string, string>;
  body: string;
  claim: CallbackClaim;
  /** @default now */
  receivedAt?: Date;
  /** When it may first be claimed (an earlier one is claimed first). @default receivedAt */
  dueAt?: Date;
}

export const inboxEntryStatuses = ['pending', 'processing', 'done', 'dead'] as const;

export type InboxEntryStatus = (typeof inboxEntryStatuses)[number];

/** One stored callback (a copy). */
export interface InboxEntry {
  id: string;
  dedupKey: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  claim: CallbackClaim;
  status: InboxEntryStatus;
  /** Arrivals after the first (not re-processed). */
  duplicates: number;
  attempts: number;
  dueAt: Date;
  leaseUntil: Date | null;
  lastError: string | null;
  outcome: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

export interface InboxClaim {
  entry: InboxEntry;
  token: string;
}

export interface InboxClaimOptions {
  leaseMs: number;
  /** @default 10 */
  limit?: number;
}

export interface InboxBacklog {
  /** `pending`, due now. */
  due: number;
  /** `processing`, lease expired or not. */
  processing: number;
  /** `pending`, due later. */
  scheduled: number;
}

export interface InboxPruneOptions {
  /** Finished (`processedAt`, not arrival) before this instant; not later than now. */
  olderThan: Date;
  /** 1 to 1,000,000; `deleted === limit` means more may be left. @default 10000 */
  limit?: number;
  /** Only entries that finished with one of these outcomes (`'orphan'`, …). @default every entry */
  outcomes?: readonly string[];
}

/** Per prune statement: each its own short transaction, so other writes get their turn. */
export const inboxPruneBatchSize = 500;

export interface InboxListOptions {
  status?: InboxEntryStatus;
  outcome?: string;
  /** Only callbacks claiming this platform reference (a record's evidence). */
  paymentReference?: string;
  /** @default 100 */
  limit?: number;
}

/** How a claimed callback ends: handled (`done`), tried again at `dueAt`, or dead-lettered. */
export type InboxFinish =
  | { status: 'done'; outcome: string }
  | { status: 'pending'; dueAt: Date; error?: string }
  | { status: 'dead'; error: string };

/**
 * Every callback is written here before the receiver answers 200, so a crash after the answer
 * loses nothing. Writes after a claim are fenced by its token: false, nothing written, if stale.
 */
export interface CallbackInbox {
  /** An existing `dedupKey` counts a duplicate and appends nothing (atomic across processes). */
  append(input: InboxAppend): Promise<{ entry: InboxEntry; duplicate: boolean }>;
  /** Due (or expired `processing`) entries, oldest due first, never shared between workers. */
  claim(options: InboxClaimOptions): Promise<InboxClaim[]>;
  /**
   * Ends a claim: `done` with the outcome, `pending` again at `dueAt` (the error kept for a
   * person) or `dead`. Fenced by the claim's token: false, nothing written, when it is stale.
   */
  finish(id: string, token: string, finish: InboxFinish): Promise<boolean>;
  /**
   * A person's retry of a `dead` entry: `pending`, due now, with a fresh count of attempts (so
   * the worker's backoff starts over); the last error stays until the next try. Any other
   * status → `StoreInputError` naming it.
   */
  requeue(id: string): Promise<InboxEntry>;
  get(id: string): Promise<InboxEntry | undefined>;
  backlog(): Promise<InboxBacklog>;
  /** Oldest received first. */
  list(options?: InboxListOptions): Promise<InboxEntry[]>;
  /**
   * Finished entries only, oldest first, in bounded batches; safe from several processes. A
   * pruned callback delivered again is processed again, never credited twice.
   */
  prune(options: InboxPruneOptions): Promise<{ deleted: number }>;
}
