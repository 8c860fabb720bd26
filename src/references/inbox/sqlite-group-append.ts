import { toInboxEntry } from '../sql/inbox-table.js';
import type { GroupWrite, InboxInsert } from './sqlite-group-write.js';
import type { InboxEntry } from './types.js';

export type { InboxInsert } from './sqlite-group-write.js';

export interface Appended {
  entry: InboxEntry;
  duplicate: boolean;
}

/**
 * Runs `work` while no other statement or transaction can use the store's connection (Kysely's
 * one SQLite connection, held until `work` settles).
 */
export type ExclusiveUse = (work: () => Promise<void>) => Promise<void>;

/** At most this many callbacks in one transaction; more wait for the next one. */
const MAX_GROUP = 512;

/**
 * A gathering group this large commits at once: past it, a bigger group saves little (stop 15:
 * ~280 µs of CPU per callback in groups of 4, ~170 in groups of 16).
 */
const GATHERED_ENOUGH = 32;

/** After waits in vain, at most this many groups in a row commit without waiting. */
const MAX_WAITS_SKIPPED = 64;

interface Waiting {
  insert: InboxInsert;
  /** The entry as it will be stored, when the insert wins: no need to read it back. */
  entry: InboxEntry;
  resolve(appended: Appended): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the SQLite inbox. Appends that arrive while a group is being gathered (one
 * turn of the event loop: everything the server parsed in the same I/O phase), or while the
 * previous group is being committed, are written in ONE `BEGIN IMMEDIATE … COMMIT` — one WAL
 * commit and fsync for the group instead of one per callback. Each caller's promise resolves
 * only after the commit that contains its callback (durability before the answer, unchanged).
 * Dedup stays atomic: the unique `dedup_key` decides inside the transaction, so the second of
 * two equal callbacks in one group is a duplicate.
 *
 * `write` commits a group: on a writer thread with its own connection for a file in WAL mode
 * (the event loop keeps serving requests during the fsync), or on the store's connection
 * otherwise. Either way the store's connection is held while a group is written, so no store
 * transaction (a transition's read-then-write) can interleave with it and find its snapshot
 * outdated. When a group's transaction fails, its callbacks are tried again one per
 * transaction, so one bad row cannot fail the others; each caller gets its own outcome.
 *
 * **Gathering window** (`gatherMs`, in the spirit of PostgreSQL's `commit_delay`): most of a
 * commit's cost is per group, not per callback, so under a steady flow a small group waits, up
 * to `gatherMs` after its first callback arrived, for more to join it (or until
 * {@link GATHERED_ENOUGH} have). It only waits when callbacks are flowing: the group already
 * holds two or more, or its first came within `gatherMs` of the callback before it — and the
 * last waits were not in vain (after a wait that brought nobody, the next 1, 2, 4 … 64 groups
 * commit at once).
 * A lone callback after a quiet spell is committed at once, as without the window. The wait happens
 * before the connection is taken, so the store's other users are not held up by it.
 */
export class SqliteGroupAppender {
  readonly #exclusive: ExclusiveUse;
  readonly #write: GroupWrite;
  #waiting: Waiting[] = [];
  /**
   * A flush is scheduled or running. Appends made before it takes the connection join it; later
   * ones start the next flush when it ends.
   */
  #flushing: Promise<void> | undefined;
  /** The gathering window in milliseconds; 0: commit what the I/O phase brought, at once. */
  readonly #gatherMs: number;
  /** When the previous append arrived (`performance.now()`), to tell a flow from a lone one. */
  #lastAppendAt = Number.NEGATIVE_INFINITY;
  /** When the first of the appends now waiting arrived. */
  #groupStartedAt = 0;
  /** That first append came within the window of the one before it: callbacks are flowing. */
  #groupStartedInFlow = false;
  /** Ends the current gathering wait early (the group is big enough); set while one runs. */
  #endGathering: (() => void) | undefined;
  /**
   * Groups left that commit without waiting, after waits that brought nobody: 1 after the first
   * such wait, then 2, 4 … up to {@link MAX_WAITS_SKIPPED}; a wait that gathers someone starts
   * over. A few clients that each wait for their answer before sending again (a closed loop)
   * would otherwise pay the window on every round for nothing (measured: ~100 µs of CPU for
   * each timer wake-up on a loaded machine).
   */
  #waitsToSkip = 0;
  #nextSkip = 1;

  constructor(exclusive: ExclusiveUse, write: GroupWrite, gatherMs = 0) {
    this.#exclusive = exclusive;
    this.#write = write;
    this.#gatherMs = gatherMs;
  }

  append(insert: InboxInsert, entry: InboxEntry): Promise<Appended> {
    return new Promise((resolve, reject) => {
      if (this.#gatherMs > 0) {
        const now = performance.now();
        if (this.#waiting.length === 0) {
          this.#groupStartedAt = now;
          this.#groupStartedInFlow = now - this.#lastAppendAt <= this.#gatherMs;
        }
        this.#lastAppendAt = now;
      }
      this.#waiting.push({ insert, entry, resolve, reject });
      if (this.#endGathering && this.#waiting.length >= GATHERED_ENOUGH) this.#endGathering();
      // After the I/O phase: every callback parsed in it joins this group.
      this.#flushing ??= this.#scheduled();
    });
  }

  /** A flush after the I/O phase, and after the gathering window when there is one to wait. */
  #scheduled(): Promise<void> {
    const phase = new Promise((resolve) => setImmediate(resolve));
    if (this.#gatherMs <= 0) return phase.then(() => this.#flush());
    return phase.then(() => this.#gathered()).then(() => this.#flush());
  }

  /** Resolves when the waiting group should be committed (see the class comment). */
  #gathered(): Promise<void> | undefined {
    const count = this.#waiting.length;
    if (this.#gatherMs <= 0 || count === 0 || count >= GATHERED_ENOUGH) return undefined;
    if (count < 2 && !this.#groupStartedInFlow) return undefined;
    if (this.#waitsToSkip > 0) {
      this.#waitsToSkip -= 1;
      return undefined;
    }
    const left = this.#groupStartedAt + this.#gatherMs - performance.now();
    if (left < 0.5) return undefined;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#endGathering = undefined;
        if (this.#waiting.length > count) this.#nextSkip = 1;
        else {
          this.#waitsToSkip = this.#nextSkip;
          this.#nextSkip = Math.min(this.#nextSkip * 2, MAX_WAITS_SKIPPED);
        }
        resolve();
      };
      // Whole milliseconds: libuv's timers have no finer grain, and a fractional delay is fired
      // early and re-armed for the rest (500 waits on a loaded machine: 120 µs of CPU each with
      // 1.7 ms, 104 µs with 1 ms).
      const timer = setTimeout(done, Math.max(1, Math.round(left)));
      this.#endGathering = done;
    });
  }

  /** Resolves once every append made so far has been answered. */
  async settled(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  async #flush(): Promise<void> {
    try {
      await this.#exclusive(async () => {
        // Only what waits now: appends arriving during these commits go to the next flush,
        // queued for the connection behind whatever else asked for it meanwhile (a claim, a
        // transition), so a steady flow of callbacks cannot starve the store's other users.
        const waiting = this.#waiting.splice(0);
        for (let start = 0; start < waiting.length; start += MAX_GROUP) {
          await this.#commit(waiting.slice(start, start + MAX_GROUP));
        }
      });
    } catch (error) {
      // The connection could not be had (the store closed meanwhile): nobody was written.
      for (const waiting of this.#waiting.splice(0)) waiting.reject(error);
    } finally {
      this.#flushing = undefined;
      // Appends made after the loop's last look start the next flush.
      if (this.#waiting.length > 0) this.#flushing = this.#scheduled();
    }
  }

  async #commit(group: Waiting[]): Promise<void> {
    let outcomes: Awaited<ReturnType<GroupWrite>>;
    try {
      outcomes = await this.#write(group.map((one) => one.insert));
    } catch (error) {
      for (const one of group) one.reject(error);
      return;
    }
    // Committed: only now may anyone be told their callback is stored.
    for (const [index, one] of group.entries()) {
      const outcome = outcomes[index];
      if (outcome?.kind === 'inserted') one.resolve({ entry: one.entry, duplicate: false });
      else if (outcome?.kind === 'duplicate') {
        one.resolve({ entry: toInboxEntry(outcome.row), duplicate: true });
      } else one.reject(outcome?.error ?? new Error('The inbox write gave no outcome.'));
    }
  }
}
