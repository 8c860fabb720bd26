import type { ParsedLeaseDue, ParsedLeaseRelease, ParsedRelease } from '../schedule/input-rules.js';
import type { LeasedRecord } from '../schedule/types.js';
import {
  leaseDueRows,
  readObservationRows,
  releaseLeaseRow,
  releaseLeaseRows,
} from './schedule.js';
import type { SqliteScheduleWrites } from './schedule-sqlite.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { type SqliteScheduleThread, viaScheduleThread } from './sqlite-schedule-worker.js';

/**
 * The SQL store's side of the reconciler's scheduling (SchedulingStore): due records leased a
 * page at a time, and their leases released — each on the fastest path the store has: the
 * schedule thread (a SQLite file opened by path), else SQLite's hand-written statements, else
 * Kysely (PostgreSQL). Its input is checked already (sql-store.ts).
 */
export class SqlScheduling {
  readonly #store: SqlStoreContext;
  /** SQLite: the reconciler's lease and batched release without Kysely (schedule-sqlite.ts). */
  readonly #scheduleWrites: SqliteScheduleWrites | undefined;
  /** SQLite file opened by path: the same lease and release on a thread of their own. */
  readonly #scheduleThread: SqliteScheduleThread | undefined;

  constructor(
    store: SqlStoreContext,
    scheduleWrites: SqliteScheduleWrites | undefined,
    scheduleThread: SqliteScheduleThread | undefined,
  ) {
    this.#store = store;
    this.#scheduleWrites = scheduleWrites;
    this.#scheduleThread = scheduleThread;
  }

  async leaseDue(parsed: ParsedLeaseDue): Promise<LeasedRecord[]> {
    const now = this.#store.now();
    this.#store.open();
    const threaded = await viaScheduleThread(this.#scheduleThread, (t) => t.leaseDue(parsed, now));
    if (threaded !== undefined) return threaded;
    const leased = this.#store.open() && this.#scheduleWrites?.leaseDue(parsed, now);
    if (leased !== undefined) return leased;
    return leaseDueRows(this.#store.open(), this.#store.dialect, parsed, now);
  }

  async releaseLease(reference: string, parsed: ParsedRelease): Promise<boolean> {
    const { dialect } = this.#store;
    return releaseLeaseRow(this.#store.open(), dialect, reference, parsed, this.#store.now());
  }

  async releaseLeases(parsed: readonly ParsedLeaseRelease[]): Promise<boolean[]> {
    const now = this.#store.now();
    this.#store.open();
    const threaded = await viaScheduleThread(this.#scheduleThread, (t) =>
      t.releaseLeases(parsed, now),
    );
    if (threaded !== undefined) return threaded;
    const written = this.#store.open() && this.#scheduleWrites?.releaseLeases(parsed, now);
    if (written !== undefined) return written;
    return releaseLeaseRows(this.#store.open(), this.#store.dialect, parsed, now);
  }

  async readObservations(reference: string): Promise<unknown[]> {
    return readObservationRows(this.#store.open(), reference);
  }
}
