/** One page of a log: items after the cursor, the cursor for the next page, and what was lost. */
export interface LogPage<T> {
  readonly items: T[];
  /** Pass as `after` for the next page; `null` when this page reached the end. */
  readonly next: number | null;
  /** Entries ever written (the last `seq`). */
  readonly total: number;
  /** Oldest entries removed to stay within the limit: non-zero means the log is not complete. */
  readonly dropped: number;
}

/** The largest page the control API hands out. */
export const MAX_PAGE = 10_000;

/** An append-only log with a sequence number per entry, bounded by dropping the oldest. */
export class PagedLog<T extends object> {
  #entries: Array<T & { seq: number }> = [];
  #seq = 0;
  #dropped = 0;

  constructor(private readonly limit: number) {}

  append(entry: T): T & { seq: number } {
    this.#seq += 1;
    const stored = { ...entry, seq: this.#seq };
    this.#entries.push(stored);
    if (this.#entries.length > this.limit) {
      const excess = this.#entries.length - this.limit;
      this.#entries.splice(0, excess);
      this.#dropped += excess;
    }
    return stored;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Every entry kept, oldest first (copies). */
  all(): Array<T & { seq: number }> {
    return this.#entries.map((entry) => ({ ...entry }));
  }

  /** Entries with `seq > after`, at most `limit`, oldest first. */
  page(after = 0, limit = 1000): LogPage<T & { seq: number }> {
    // Sequence numbers are dense from the first entry kept: the start is found without a scan.
    const first = this.#entries[0]?.seq ?? this.#seq + 1;
    const start = Math.max(0, after + 1 - first);
    const items = this.#entries.slice(start, start + limit).map((entry) => ({ ...entry }));
    const last = items.at(-1)?.seq;
    const more = last !== undefined && last < this.#seq;
    return { items, next: more ? last : null, total: this.#seq, dropped: this.#dropped };
  }
}
