import { type Kysely, sql, type Transaction } from 'kysely';
import type { ParsedLeaseDue, ParsedLeaseRelease, ParsedRelease } from '../schedule/input-rules.js';
import { LeaseLostError } from '../schedule/lease-lost-error.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import type { TransactionStatus } from '../types.js';
import type { ScheduleDatabase } from './schedule-table.js';
import {
  type SqlDialectName,
  type StoreDatabase,
  type TransactionRow,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

function scheduled(db: Db): Kysely<ScheduleDatabase> {
  return db as unknown as Kysely<ScheduleDatabase>;
}

function fromInstant(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

/**
 * Leases due records in one statement. On PostgreSQL the inner SELECT takes row locks with
 * SKIP LOCKED, so concurrent workers split the due records instead of waiting on each other;
 * the lease columns then keep the record theirs after the statement commits. SQLite has one
 * writer at a time, so the same statement is exclusive there.
 */
export async function leaseDueRows(
  db: Db,
  dialect: SqlDialectName,
  options: ParsedLeaseDue,
  now: Date,
): Promise<LeasedRecord[]> {
  const at = (value: Date) => toInstant(dialect, value);
  const passStartedAt = options.passStartedAt ?? now;
  const leaseExpiresAt = new Date(now.getTime() + options.leaseMs);
  const token =
    dialect === 'postgres'
      ? sql<string>`gen_random_uuid()::text`
      : sql<string>`lower(hex(randomblob(16)))`;
  const s = scheduled(db);
  const dueIn = (statuses: readonly TransactionStatus[]) =>
    s
      .selectFrom(transactionsTable)
      .select(['merchant_reference', 'next_check_at'])
      .where('status', 'in', [...statuses])
      .where((eb) =>
        eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', at(passStartedAt))]),
      )
      .where((eb) => eb.or([eb('lease_token', 'is', null), eb('lease_expires_at', '<=', at(now))]))
      .$if(!options.force, (qb) =>
        qb.where((eb) =>
          eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '<=', at(passStartedAt))]),
        ),
      )
      .orderBy('next_check_at', (ob) => ob.asc().nullsFirst())
      .orderBy('merchant_reference', 'asc')
      .limit(options.limit);
  // PostgreSQL: one SELECT … FOR UPDATE SKIP LOCKED (a UNION cannot lock). SQLite: one ordered
  // index range per status, merged — over `status IN (…)` its planner sorts every open record
  // for each page (a temporary B-tree), which grows with the store, page after page.
  const due =
    dialect === 'postgres' || options.statuses.length === 1
      ? dueIn(options.statuses)
          .clearSelect()
          .select('merchant_reference')
          .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked())
      : s
          .selectFrom(
            options.statuses
              .map((status, i) => s.selectFrom(dueIn([status]).as(`s${i}`)).selectAll())
              .reduce((all, next) => all.unionAll(next))
              .as('due'),
          )
          .select('due.merchant_reference')
          .orderBy('due.next_check_at', (ob) => ob.asc().nullsFirst())
          .orderBy('due.merchant_reference', 'asc')
          .limit(options.limit);
  const rows = await s
    .updateTable(transactionsTable)
    .set({ lease_token: token, lease_expires_at: at(leaseExpiresAt) })
    .where('merchant_reference', 'in', due)
    .returningAll()
    .execute();
  return rows
    .map((row) => ({
      record: toRecord(row as TransactionRow),
      token: row.lease_token as string,
      nextCheckAt: fromInstant(row.next_check_at),
      observations: row.check_log === null ? [] : (JSON.parse(row.check_log) as unknown[]),
    }))
    .sort((a, b) => {
      const x = a.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
      const y = b.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
      if (x !== y) return x < y ? -1 : 1;
      const p = a.record.merchantReference;
      const q = b.record.merchantReference;
      return p < q ? -1 : p > q ? 1 : 0;
    });
}

/** Ends the lease held with `token`: one fenced UPDATE; false when another worker holds it. */
export async function releaseLeaseRow(
  db: Db,
  dialect: SqlDialectName,
  merchantReference: string,
  options: ParsedRelease,
  now: Date,
): Promise<boolean> {
  const at = (value: Date) => toInstant(dialect, value);
  const s = scheduled(db);
  if (options.observation !== undefined) {
    // Appending to the log needs its current value: read and write under the lease, in one
    // transaction (the lease makes this worker the only writer of the log meanwhile).
    return s.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom(transactionsTable)
        .select('check_log')
        .where('merchant_reference', '=', merchantReference)
        .where('lease_token', '=', options.token)
        .$if(dialect === 'postgres', (qb) => qb.forUpdate())
        .executeTakeFirst();
      if (!row) return false;
      const log = row.check_log === null ? [] : (JSON.parse(row.check_log) as unknown[]);
      const next = JSON.stringify([...log, options.observation].slice(-maxObservations));
      return release(trx as unknown as Db, next);
    });
  }
  return release(db, undefined);

  async function release(target: Db, checkLog: string | undefined): Promise<boolean> {
    const result = await scheduled(target)
      .updateTable(transactionsTable)
      .set((eb) => ({
        lease_token: null,
        lease_expires_at: null,
        next_check_at: at(options.nextCheckAt),
        ...(options.counted
          ? {
              last_checked_at: at(options.checkedAt ?? now),
              check_count: eb('check_count', '+', 1),
              updated_at: at(now),
            }
          : {}),
        ...(checkLog === undefined ? {} : { check_log: checkLog }),
      }))
      .where('merchant_reference', '=', merchantReference)
      .where('lease_token', '=', options.token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

/** Rows per UPDATE of {@link releaseLeaseRows} (SQLite's compound SELECT limit is 500). */
const releaseChunk = 200;

/**
 * Ends many leases in one transaction: one SELECT for the check logs to append to (locking the
 * rows, in merchant-reference order, on PostgreSQL), then one fenced UPDATE … FROM per
 * {@link releaseChunk} rows. Writes exactly what {@link releaseLeaseRow} writes, each row only
 * while `token` is still its lease; the reconciler's checks end through here, so a pass commits
 * once per batch instead of once per record.
 */
export async function releaseLeaseRows(
  db: Db,
  dialect: SqlDialectName,
  releases: readonly ParsedLeaseRelease[],
  now: Date,
): Promise<boolean[]> {
  if (releases.length === 0) return [];
  const at = (value: Date) => toInstant(dialect, value);
  const released = new Set<string>();
  await scheduled(db)
    .transaction()
    .execute(async (trx) => {
      // PostgreSQL locks every row up front in one order, so two batches that meet on a
      // record (a lease taken over after expiry) wait for each other instead of deadlocking.
      const toRead = releases
        .filter((release) => dialect === 'postgres' || release.observation !== undefined)
        .map((release) => release.merchantReference)
        .sort();
      const tokens = new Map(releases.map((r) => [r.merchantReference, r.token]));
      const logs = new Map<string, string | null>();
      for (let start = 0; start < toRead.length; start += releaseChunk) {
        const rows = await trx
          .selectFrom(transactionsTable)
          .select(['merchant_reference', 'lease_token', 'check_log'])
          .where('merchant_reference', 'in', toRead.slice(start, start + releaseChunk))
          .orderBy('merchant_reference')
          .$if(dialect === 'postgres', (qb) => qb.forUpdate())
          .execute();
        for (const row of rows) {
          // Only a log under our lease is ours to extend; the UPDATE skips the others anyway.
          if (row.lease_token === tokens.get(row.merchant_reference)) {
            logs.set(row.merchant_reference, row.check_log);
          }
        }
      }
      for (let start = 0; start < releases.length; start += releaseChunk) {
        const chunk = releases.slice(start, start + releaseChunk).map((release) => {
          const log = logs.get(release.merchantReference);
          return {
            release,
            // NULL: keep the log as it is (no observation, or a lease we no longer hold).
            checkLog:
              release.observation === undefined || log === undefined
                ? null
                : appendObservation(log, release.observation),
          };
        });
        const rows = await updateReleased(trx as unknown as Db, chunk, at(now));
        for (const row of rows) released.add(row.merchant_reference);
      }
    });
  return releases.map((release) => released.has(release.merchantReference));

  function updateReleased(
    trx: Db,
    chunk: { release: ParsedLeaseRelease; checkLog: string | null }[],
    nowInstant: Date | string,
  ) {
    // One row per release, as a derived table both dialects read alike (SQLite has no column
    // names for VALUES). PostgreSQL reads the parameters as text: cast where the type matters.
    const rows = sql.join(
      chunk.map(({ release, checkLog }, index) => {
        const values = [
          release.merchantReference,
          release.token,
          at(release.nextCheckAt),
          release.counted ? 1 : 0,
          at(release.checkedAt ?? now),
          checkLog,
        ];
        return index === 0
          ? sql`select ${sql.join(values.map((value, i) => sql`${value} as ${sql.raw(releaseColumns[i] as string)}`))}`
          : sql`select ${sql.join(values)}`;
      }),
      sql` union all `,
    );
    const instant = (column: string) =>
      dialect === 'postgres'
        ? sql<string>`cast(${sql.ref(column)} as timestamptz)`
        : sql<string>`${sql.ref(column)}`;
    const counted = dialect === 'postgres' ? sql`cast(v.v_counted as integer)` : sql`v.v_counted`;
    return scheduled(trx)
      .updateTable(transactionsTable)
      .from(sql<ReleaseRow>`(${rows})`.as('v'))
      .set({
        lease_token: null,
        lease_expires_at: null,
        next_check_at: instant('v.v_next_check_at'),
        last_checked_at: sql`case when ${counted} = 1 then ${instant('v.v_checked_at')} else ${sql.ref('last_checked_at')} end`,
        check_count: sql`${sql.ref('check_count')} + ${counted}`,
        updated_at: sql`case when ${counted} = 1 then ${nowInstant} else ${sql.ref('updated_at')} end`,
        check_log: sql`coalesce(v.v_check_log, ${sql.ref('check_log')})`,
      })
      .where(
        sql<boolean>`${sql.ref('merchant_reference')} = v.v_reference and ${sql.ref('lease_token')} = v.v_token`,
      )
      .returning('merchant_reference')
      .execute();
  }
}

/** The derived table's columns, in the order each row gives them. */
const releaseColumns = [
  'v_reference',
  'v_token',
  'v_next_check_at',
  'v_counted',
  'v_checked_at',
  'v_check_log',
] as const;

interface ReleaseRow {
  v_reference: string;
  v_token: string;
  v_next_check_at: string;
  v_counted: number;
  v_checked_at: string;
  v_check_log: string | null;
}

/** The check log with one more observation, the oldest dropped past {@link maxObservations}. */
function appendObservation(log: string | null, observation: unknown): string {
  const entries = log === null ? [] : (JSON.parse(log) as unknown[]);
  return JSON.stringify([...entries, observation].slice(-maxObservations));
}

/**
 * The fence of a final write: inside the transaction that locked the record, refuse unless
 * `token` is still its lease (`... WHERE lease_token = $n`).
 */
export async function assertLeaseRow(
  trx: Db,
  merchantReference: string,
  token: string,
): Promise<void> {
  const row = await scheduled(trx)
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .where('merchant_reference', '=', merchantReference)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  if (!row) throw new LeaseLostError(merchantReference);
}
