import { type Kysely, sql, type Transaction } from 'kysely';
import type { ParsedLeaseDue, ParsedRelease } from '../schedule/input-rules.js';
import { LeaseLostError } from '../schedule/lease-lost-error.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
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
  const due = s
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .where('status', 'in', [...options.statuses])
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
    .limit(options.limit)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
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
