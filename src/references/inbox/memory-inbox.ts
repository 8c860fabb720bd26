import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import * as rules from './input-rules.js';
import type {
  CallbackInbox,
  InboxAppend,
  InboxBacklog,
  InboxClaim,
  InboxClaimOptions,
  InboxEntry,
  InboxFinish,
  InboxListOptions,
  InboxPruneOptions,
} from './types.js';

const nextId = monotonicFactory();

/** The memory store's inbox: no await between deciding and writing, so calls never interleave. */
export class MemoryCallbackInbox implements CallbackInbox {
  readonly #entries = new Map<string, InboxEntry>();
  readonly #byKey = new Map<string, string>();
  readonly #tokens = new Map<string, string>();
  readonly #now: () => Date;
  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }
  async append(input: InboxAppend): Promise<{ entry: InboxEntry; duplicate: boolean }> {
    const parsed = rules.parseAppend(input);
    const existing = this.#byKey.get(parsed.dedupKey);
    if (existing !== undefined) {
      const entry = this.#entries.get(existing) as InboxEntry;
      entry.duplicates += 1;
      return { entry: copy(entry), duplicate: true };
    }
    const receivedAt = parsed.receivedAt ?? this.#now();
    const entry: InboxEntry = {
      id: nextId(),
      dedupKey: parsed.dedupKey,
      method: parsed.method,
      url: parsed.url,
      headers: { ...parsed.headers },
      body: parsed.body,
      claim: { ...parsed.claim },
      status: 'pending',
      duplicates: 0,
      attempts: 0,
      dueAt: parsed.dueAt ?? receivedAt,
      leaseUntil: null,
      lastError: null,
      outcome: null,
      receivedAt,
      processedAt: null,
    };
    this.#entries.set(entry.id, entry);
    this.#byKey.set(entry.dedupKey, entry.id);
    return { entry: copy(entry), duplicate: false };
  }
  async claim(options: InboxClaimOptions): Promise<InboxClaim[]> {
    const { leaseMs, limit } = rules.parseClaimOptions(options);
    const now = this.#now();
    const due = [...this.#entries.values()]
      .filter(
        (entry) =>
          (entry.status === 'pending' && entry.dueAt <= now) ||
          (entry.status === 'processing' && entry.leaseUntil !== null && entry.leaseUntil <= now),
      )
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit);
    return due.map((entry) => {
      const token = randomUUID();
      entry.status = 'processing';
      entry.attempts += 1;
      entry.leaseUntil = new Date(now.getTime() + leaseMs);
      this.#tokens.set(entry.id, token);
      return { entry: copy(entry), token };
    });
  }
  async finish(id: string, token: string, finish: InboxFinish): Promise<boolean> {
    const parsed = rules.parseFinish(id, token, finish);
    if (parsed.status === 'pending') {
      const { dueAt, error } = parsed;
      return this.#fenced(id, token, {
        status: 'pending',
        dueAt: new Date(dueAt),
        ...(error === undefined ? {} : { lastError: error }),
      });
    }
    const processedAt = this.#now();
    return parsed.status === 'done'
      ? this.#fenced(id, token, { status: 'done', outcome: parsed.outcome, processedAt })
      : this.#fenced(id, token, {
          status: 'dead',
          outcome: 'dead',
          lastError: parsed.error,
          processedAt,
        });
  }
  async requeue(id: string): Promise<InboxEntry> {
    rules.parseEntryId('inbox.requeue', id);
    const entry = this.#entries.get(id);
    if (entry?.status !== 'dead') throw rules.notRequeued(id, entry?.status);
    Object.assign(entry, {
      status: 'pending',
      attempts: 0,
      dueAt: this.#now(),
      outcome: null,
      processedAt: null,
    });
    return copy(entry);
  }
  async get(id: string): Promise<InboxEntry | undefined> {
    rules.parseEntryId('inbox.get', id);
    const entry = this.#entries.get(id);
    return entry && copy(entry);
  }
  async backlog(): Promise<InboxBacklog> {
    const now = this.#now();
    const backlog: InboxBacklog = { due: 0, processing: 0, scheduled: 0 };
    for (const entry of this.#entries.values()) {
      if (entry.status === 'processing') backlog.processing += 1;
      else if (entry.status === 'pending') {
        if (entry.dueAt <= now) backlog.due += 1;
        else backlog.scheduled += 1;
      }
    }
    return backlog;
  }
  async list(options?: InboxListOptions): Promise<InboxEntry[]> {
    const { status, outcome, paymentReference, limit } = rules.parseListOptions(options);
    return [...this.#entries.values()]
      .filter(
        (entry) =>
          (status === undefined || entry.status === status) &&
          (outcome === undefined || entry.outcome === outcome) &&
          (paymentReference === undefined || entry.claim.paymentReference === paymentReference),
      )
      .sort((a, b) => a.id.localeCompare(b.id))
      .slice(0, limit)
      .map(copy);
  }
  async prune(options: InboxPruneOptions): Promise<{ deleted: number }> {
    const { olderThan, limit, outcomes } = rules.parsePruneOptions(options, this.#now());
    const finished = [...this.#entries.values()]
      .filter(
        (entry) =>
          (entry.status === 'done' || entry.status === 'dead') &&
          entry.processedAt !== null &&
          entry.processedAt < olderThan &&
          (outcomes === undefined || (entry.outcome !== null && outcomes.includes(entry.outcome))),
      )
      .sort((a, b) => (a.processedAt?.getTime() ?? 0) - (b.processedAt?.getTime() ?? 0))
      .slice(0, limit);
    for (const entry of finished) {
      this.#entries.delete(entry.id);
      // The key goes too: the same callback delivered again is a new entry, as on SQL.
      this.#byKey.delete(entry.dedupKey);
      this.#tokens.delete(entry.id);
    }
    return { deleted: finished.length };
  }
  /** Writes `changes` only while the claim's token holds an unexpired lease, as the SQL inbox does. */
  #fenced(id: string, token: string, changes: Partial<InboxEntry>): boolean {
    const entry = this.#entries.get(id);
    if (entry?.status !== 'processing' || this.#tokens.get(id) !== token) return false;
    if (entry.leaseUntil === null || entry.leaseUntil <= this.#now()) return false;
    Object.assign(entry, { ...changes, leaseUntil: null });
    return this.#tokens.delete(id);
  }
}

function copy(entry: InboxEntry): InboxEntry {
  return {
    ...entry,
    headers: { ...entry.headers },
    claim: { ...entry.claim },
    dueAt: new Date(entry.dueAt),
    leaseUntil: entry.leaseUntil && new Date(entry.leaseUntil),
    receivedAt: new Date(entry.receivedAt),
    processedAt: entry.processedAt && new Date(entry.processedAt),
  };
}
