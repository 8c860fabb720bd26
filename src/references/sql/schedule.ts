import { type Kysely, sql } from 'kysely';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import { byDueTime } from '../reconciliation-order.js';
import type { ParsedLeaseDue, ParsedRelease } from '../schedule/input-rules.js';
import { LeaseLostError } from '../schedule/lease-lost-error.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import { leaseStatuses } from './migrations.js';
import type { Db } from './record-claims.js';
import {
  checkLogTable,
  fromInstant,
  type SqlDialectName,
  type StoreDatabase,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';

/**
 * One statement, read in the order of the `due` index (check_due_at, merchant_reference), so
 * that the engine walks due records only and stops after `limit`: a page costs the same with a
 * million records due as with a thousand. On PostgreSQL SKIP LOCKED lets concurrent workers
 * split the due records.
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
  const { initiatingBefore, statuses } = options;
  // check_due_at is set for open records only: their status is filtered only for a subset.
  const everyOpen = leaseStatuses.every((status) => statuses.includes(status));
  const due = db
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .where((eb) =>
      options.force
        ? eb('check_due_at', 'is not', null)
        : eb('check_due_at', '<=', at(passStartedAt)),
    )
    .$if(!everyOpen, (qb) => qb.where('status', 'in', [...statuses]))
    .where((eb) =>
      eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', at(passStartedAt))]),
    )
    .where((eb) => eb.or([eb('lease_token', 'is', null), eb('lease_expires_at', '<=', at(now))]))
    .$if(initiatingBefore !== undefined && statuses.includes('initiating'), (qb) =>
      qb.where((eb) => {
        const old = eb('created_at', '<', at(initiatingBefore as Date));
        return statuses.length === 1 ? old : eb.or([eb('status', '!=', 'initiating'), old]);
      }),
    )
    .orderBy('check_due_at')
    .orderBy('merchant_reference')
    .limit(options.limit)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
  // The check log (up to 20 full answers per record) is read only when asked for.
  const { rows, logs } = await db.transaction().execute(async (trx) => {
    const leasedRows = await trx
      .updateTable(transactionsTable)
      .set({ lease_token: token, lease_expires_at: at(leaseExpiresAt) })
      .where('merchant_reference', 'in', due)
      .returningAll()
      .execute();
    const references = leasedRows.map((row) => row.merchant_reference);
    return {
      rows: leasedRows,
      logs: options.observations ? await readLogs(trx, references) : undefined,
    };
  });
  return rows
    .map((row): LeasedRecord => {
      const leased: LeasedRecord = {
        record: toRecord(row),
        token: row.lease_token as string,
        nextCheckAt: row.next_check_at === null ? null : fromInstant(row.next_check_at),
      };
      if (logs) leased.observations = logs.get(row.merchant_reference) ?? [];
      return leased;
    })
    .sort(byDueTime);
}

/** The check logs of `references`, each oldest first. */
async function readLogs(s: Db, references: readonly string[]): Promise<Map<string, unknown[]>> {
  const logs = new Map<string, unknown[]>();
  for (let start = 0; start < references.length; start += logChunk) {
    const entries = await s
      .selectFrom(checkLogTable)
      .select(['merchant_reference', 'observation'])
      .where('merchant_reference', 'in', references.slice(start, start + logChunk))
      .orderBy('merchant_reference')
      .orderBy('seq')
      .execute();
    for (const entry of entries) {
      const log = logs.get(entry.merchant_reference);
      const observation: unknown = JSON.parse(entry.observation);
      if (log) log.push(observation);
      else logs.set(entry.merchant_reference, [observation]);
    }
  }
  return logs;
}

/** Bounds one statement's size. */
const logChunk = 500;

/**
 * One commit per check: the lease ends in the UPDATE that writes the check and its next due
 * time, fenced by the token; the observation is appended under that same fence.
 */
export async function releaseLeaseRow(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  merchantReference: string,
  release: ParsedRelease,
  now: Date,
): Promise<boolean> {
  const at = (value: Date) => toInstant(dialect, value);
  const { observationJson: observation, counted } = release;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable(transactionsTable)
      .set((eb) => ({
        lease_token: null,
        lease_expires_at: null,
        next_check_at: at(release.nextCheckAt),
        ...(counted && {
          last_checked_at: at(release.checkedAt ?? now),
          check_count: eb('check_count', '+', 1),
          updated_at: at(now),
        }),
        ...(observation !== undefined && { check_log_seq: eb('check_log_seq', '+', 1) }),
      }))
      .where('merchant_reference', '=', merchantReference)
      .where('lease_token', '=', release.token)
      .returning('check_log_seq')
      .executeTakeFirst();
    if (!row || observation === undefined) return row !== undefined;
    const seq = Number(row.check_log_seq);
    await trx
      .insertInto(checkLogTable)
      .values({ merchant_reference: merchantReference, seq, observation })
      .execute();
    if (seq > maxObservations) {
      await trx
        .deleteFrom(checkLogTable)
        .where('merchant_reference', '=', merchantReference)
        .where('seq', '<=', seq - maxObservations)
        .execute();
    }
    return true;
  });
}

export async function readObservationRows(db: Db, merchantReference: string): Promise<unknown[]> {
  const row = await db
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .where('merchant_reference', '=', merchantReference)
    .executeTakeFirst();
  if (!row) throw new TransactionNotFoundError(merchantReference);
  return (await readLogs(db, [merchantReference])).get(merchantReference) ?? [];
}

/** The fence of a final write, inside the transaction that locked the record. */
export async function assertLeaseRow(
  trx: Db,
  merchantReference: string,
  token: string,
): Promise<void> {
  const row = await trx
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .where('merchant_reference', '=', merchantReference)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  if (!row) throw new LeaseLostError(merchantReference);
}
