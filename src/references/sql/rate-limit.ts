import type { Kysely, Selectable } from 'kysely';
import { type BucketState, pauseBucket, takeTokens } from '../rate-limit/bucket.js';
import type { RateLimitGrant, RateLimitTake, SharedRateLimit } from '../rate-limit/types.js';
import {
  fromInstant,
  type RateLimitsTable,
  type SqlDialectName,
  type StoreDatabase,
  toInstant,
} from './table.js';

const buckets = 'pesakit_rate_limits';

/**
 * The SQL stores' buckets, one row per key, shared by every process on the database. A take is
 * one short transaction: the row locked (`FOR UPDATE` on PostgreSQL; SQLite's transactions are
 * begun IMMEDIATE), decided by `takeTokens`, written only when tokens were granted. Callers
 * take a few tokens at a time, so this costs one write per few requests.
 *
 * Instants are the caller's: the store's clock when it was given one (`open({ now })`, which
 * tests move, as for leases and due times), else `bucketClock`. Not the database's `now()`:
 * SQLite has none apart from the process's, one rule serves both dialects, and `takeTokens`
 * already bounds what processes whose clocks differ can let through (a bucket's instant never
 * moves back: a clock behind waits longer, one ahead gains at most a burst).
 */
export class SqlRateLimit implements SharedRateLimit {
  readonly #db: () => Kysely<StoreDatabase>;
  readonly #dialect: SqlDialectName;
  readonly #now: () => Date;
  /** `db` is asked on every call, so a closed store's part refuses work too. */
  constructor(db: () => Kysely<StoreDatabase>, dialect: SqlDialectName, now: () => Date) {
    this.#db = db;
    this.#dialect = dialect;
    this.#now = now;
  }
  take(key: string, take: RateLimitTake): Promise<RateLimitGrant> {
    return this.#db()
      .transaction()
      .execute(async (trx) => {
        const now = this.#now().getTime();
        const full = { fullAt: now, pausedUntil: null };
        const { grant, write } = takeTokens(await this.#lock(trx, key, full), take, now);
        if (write) await this.#write(trx, key, write);
        return grant;
      });
  }
  pause(key: string, ms: number): Promise<{ pausedUntil: Date }> {
    return this.#db()
      .transaction()
      .execute(async (trx) => {
        const now = this.#now().getTime();
        const made = pauseBucket(undefined, ms, now);
        const paused = pauseBucket(await this.#lock(trx, key, made), ms, now);
        await this.#write(trx, key, paused);
        return { pausedUntil: new Date(paused.pausedUntil) };
      });
  }
  /**
   * The key's row, locked until the transaction ends; made as `initial` first when missing, so
   * that two processes starting a bucket at once take turns on one row rather than both
   * deciding on a bucket of their own.
   */
  async #lock(trx: Kysely<StoreDatabase>, key: string, initial: BucketState): Promise<BucketState> {
    const read = () =>
      trx
        .selectFrom(buckets)
        .selectAll()
        .where('key', '=', key)
        .$if(this.#dialect === 'postgres', (qb) => qb.forUpdate());
    const row = await read().executeTakeFirst();
    if (row) return toBucket(row);
    await trx
      .insertInto(buckets)
      .values({ key, ...this.#columns(initial) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return toBucket(await read().executeTakeFirstOrThrow());
  }
  #columns(state: BucketState) {
    return {
      full_at: toInstant(this.#dialect, new Date(state.fullAt)),
      paused_until:
        state.pausedUntil === null ? null : toInstant(this.#dialect, new Date(state.pausedUntil)),
    };
  }
  async #write(trx: Kysely<StoreDatabase>, key: string, state: BucketState): Promise<void> {
    await trx.updateTable(buckets).set(this.#columns(state)).where('key', '=', key).execute();
  }
}

function toBucket(row: Selectable<RateLimitsTable>): BucketState {
  return {
    fullAt: fromInstant(row.full_at).getTime(),
    pausedUntil: row.paused_until === null ? null : fromInstant(row.paused_until).getTime(),
  };
}
