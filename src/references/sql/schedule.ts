import { type Kysely, sql } from 'kysely';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import { byDueTime } from '../reconciliation-order.js';
import type { ParsedLeaseDue, ParsedLeaseRelease } from '../schedule/input-rules.js';
import { LeaseLostError } from '../schedule/lease-lost-error.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import type { TransactionStatus } from '../types.js';
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

/** One statement; on PostgreSQL SKIP LOCKED lets concurrent workers split the due records. */
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
  const initiatingBefore = options.initiatingBefore;
  const dueIn = (statuses: readonly TransactionStatus[]) =>
    db
      .selectFrom(transactionsTable)
      .select(['merchant_reference', 'next_check_at'])
      .where('status', 'in', [...statuses])
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
      .$if(!options.force, (qb) =>
        qb.where((eb) =>
          eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '<=', at(passStartedAt))]),
        ),
      )
      .orderBy('next_check_at', (ob) => ob.asc().nullsFirst())
      .orderBy('merchant_reference', 'asc')
      .limit(options.limit);
  // PostgreSQL: FOR UPDATE SKIP LOCKED (a UNION cannot lock). SQLite: one index range per
  // status, merged; over `status IN (…)` its planner sorts every open record per page.
  const due =
    dialect === 'postgres' || options.statuses.length === 1
      ? dueIn(options.statuses)
          .clearSelect()
          .select('merchant_reference')
          .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked())
      : db
          .selectFrom(
            options.statuses
              .map((status, i) => db.selectFrom(dueIn([status]).as(`s${i}`)).selectAll())
              .reduce((all, next) => all.unionAll(next))
              .as('due'),
          )
          .select('due.merchant_reference')
          .orderBy('due.next_check_at', (ob) => ob.asc().nullsFirst())
          .orderBy('due.merchant_reference', 'asc')
          .limit(options.limit);
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
  for (let start = 0; start < references.length; start += releaseChunk) {
    const entries = await s
      .selectFrom(checkLogTable)
      .select(['merchant_reference', 'observation'])
      .where('merchant_reference', 'in', references.slice(start, start + releaseChunk))
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
const releaseChunk = 500;

/** One transaction; per chunk one INSERT and one UPDATE … FROM, each fenced by the lease token. */
export async function releaseLeaseRows(
  db: Db,
  dialect: SqlDialectName,
  releases: readonly ParsedLeaseRelease[],
  now: Date,
): Promise<boolean[]> {
  if (releases.length === 0) return [];
  const at = (value: Date) => toInstant(dialect, value);
  const released = new Set<string>();
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      // Every row locked up front in one order: two batches meeting on a record never deadlock.
      const references = releases.map((release) => release.merchantReference).sort();
      for (let start = 0; start < references.length; start += releaseChunk) {
        await trx
          .selectFrom(transactionsTable)
          .select('merchant_reference')
          .where('merchant_reference', 'in', references.slice(start, start + releaseChunk))
          .orderBy('merchant_reference')
          .forUpdate()
          .execute();
      }
    }
    for (let start = 0; start < releases.length; start += releaseChunk) {
      const chunk = releases.slice(start, start + releaseChunk);
      const rows = await writeReleased(trx, chunk, at(now));
      const full = rows.filter((row) => Number(row.check_log_seq) > maxObservations);
      if (full.length > 0) {
        await trx
          .deleteFrom(checkLogTable)
          .where((eb) =>
            eb.or(
              full.map((row) =>
                eb.and([
                  eb('merchant_reference', '=', row.merchant_reference),
                  eb('seq', '<=', Number(row.check_log_seq) - maxObservations),
                ]),
              ),
            ),
          )
          .execute();
      }
      for (const row of rows) released.add(row.merchant_reference);
    }
  });
  return releases.map((release) => released.has(release.merchantReference));
  async function writeReleased(
    trx: Kysely<StoreDatabase>,
    chunk: ParsedLeaseRelease[],
    nowInstant: Date | string,
  ) {
    // The batch is one JSON parameter read back as a derived table: the statement text is the
    // same for every batch, so it is cheap to build and to prepare.
    const rows = releaseRowsJson(chunk, now);
    const v = () =>
      (dialect === 'postgres'
        ? sql<ReleaseRow>`(select row->>0 as v_reference, row->>1 as v_token, cast(row->>2 as timestamptz) as v_next_check_at, cast(row->>3 as integer) as v_counted, cast(row->>4 as timestamptz) as v_checked_at, case when cast(row->>5 as integer) = 1 then cast(row->6 as text) end as v_observation from json_array_elements(cast(${rows} as json)) as row)`
        : sql<ReleaseRow>`(select value->>0 as v_reference, value->>1 as v_token, value->>2 as v_next_check_at, value->>3 as v_counted, value->>4 as v_checked_at, case when value->>5 = 1 then value->6 end as v_observation from json_each(${rows}))`
      ).as('v');
    // First the observations, while the leases still fence them.
    if (chunk.some((release) => release.observationJson !== undefined)) {
      await trx
        .insertInto(checkLogTable)
        .columns(['merchant_reference', 'seq', 'observation'])
        .expression(
          trx
            .selectFrom(v())
            .innerJoin(`${transactionsTable} as t`, 't.merchant_reference', 'v.v_reference')
            .select([
              't.merchant_reference',
              sql<number>`${sql.ref('t.check_log_seq')} + 1`.as('seq'),
              sql<string>`v.v_observation`.as('observation'),
            ])
            .where(sql<boolean>`v.v_observation is not null`)
            .whereRef('t.lease_token', '=', 'v.v_token'),
        )
        .execute();
    }
    const counted = sql.ref('v.v_counted');
    return trx
      .updateTable(transactionsTable)
      .from(v())
      .set({
        lease_token: null,
        lease_expires_at: null,
        next_check_at: sql`v.v_next_check_at`,
        last_checked_at: sql`case when ${counted} = 1 then v.v_checked_at else ${sql.ref('last_checked_at')} end`,
        check_count: sql`${sql.ref('check_count')} + ${counted}`,
        updated_at: sql`case when ${counted} = 1 then ${nowInstant} else ${sql.ref('updated_at')} end`,
        check_log_seq: sql`${sql.ref('check_log_seq')} + case when v.v_observation is null then 0 else 1 end`,
      })
      .where(
        sql<boolean>`${sql.ref('merchant_reference')} = v.v_reference and ${sql.ref('lease_token')} = v.v_token`,
      )
      .returning(['merchant_reference', 'check_log_seq'])
      .execute();
  }
}

/** Rows `[reference, token, nextCheckAt, counted, checkedAt, hasObservation, observation]`. */
function releaseRowsJson(releases: readonly ParsedLeaseRelease[], now: Date): string {
  const rows = releases.map((release) => {
    const fields = JSON.stringify([
      release.merchantReference,
      release.token,
      release.nextCheckAt.toISOString(),
      release.counted ? 1 : 0,
      (release.checkedAt ?? now).toISOString(),
    ]);
    const observation =
      release.observationJson === undefined ? '0,null' : `1,${release.observationJson}`;
    return `${fields.slice(0, -1)},${observation}]`;
  });
  return `[${rows.join(',')}]`;
}

interface ReleaseRow {
  v_reference: string;
  v_token: string;
  v_next_check_at: string;
  v_counted: number;
  v_checked_at: string;
  v_observation: string | null;
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
