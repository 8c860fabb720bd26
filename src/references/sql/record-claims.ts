import { type Kysely, sql, type Transaction } from 'kysely';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { ParsedTransition } from '../input-rules.js';
import {
  newReferences,
  ownedElsewhere,
  platformReferenceFields,
  type StatusChange,
} from '../record-changes.js';
import type { PlatformReferenceField, References, TransactionRecord } from '../types.js';
import { effectColumns } from './effects.js';
import {
  referenceColumns,
  type SqlDialectName,
  type StoreDatabase,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';

/**
 * The SQL store's record-level steps shared by its writes (attach, transition, the answer
 * write, resolve): read the record under lock, claim new reference values, the columns of a
 * status change, and the conflict a unique violation stands for.
 */

export type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

/** Reads the record inside `trx`, locking its row on PostgreSQL until the transaction ends. */
export async function lockRecord(
  trx: Db,
  dialect: SqlDialectName,
  merchantReference: string,
): Promise<TransactionRecord> {
  const row = await trx
    .selectFrom(transactionsTable)
    .selectAll()
    .where('merchant_reference', '=', merchantReference)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw new TransactionNotFoundError(merchantReference);
  return toRecord(row);
}

/**
 * The reference columns to set on `record` for `parsed` (undefined: nothing new), after
 * checking that no other record owns any of the new values; a conflict throws and writes
 * nothing.
 */
export async function claimReferences(
  trx: Db,
  dialect: SqlDialectName,
  record: TransactionRecord,
  parsed: References,
): Promise<Partial<Record<string, string>> | undefined> {
  const reference = record.merchantReference;
  const fresh = newReferences(record, parsed);
  const entries = platformReferenceFields.flatMap((field) => {
    const value = fresh[field];
    return value === undefined ? [] : [{ field, value }];
  });
  if (entries.length === 0) return undefined;
  const values = entries.map((entry) => entry.value);
  await lockValues(trx, dialect, values);
  // One query for all the new values; only when one is owned elsewhere are they asked one by
  // one, in order, to name the first conflict.
  if ((await ownerOf(trx, values, reference)) !== undefined) {
    for (const { field, value } of entries) {
      const owner = await ownerOf(trx, [value], reference);
      if (owner !== undefined) throw ownedElsewhere(reference, field, value, owner);
    }
  }
  const columns: Partial<Record<string, string>> = {};
  for (const { field, value } of entries) columns[referenceColumns[field]] = value;
  return columns;
}

/** The columns a status change writes (all but `updated_at`). */
export function statusColumns(
  dialect: SqlDialectName,
  change: StatusChange,
  parsed: ParsedTransition,
) {
  return {
    status: change.status,
    status_reason: change.statusReason,
    attempted_at: change.attemptedAt && toInstant(dialect, change.attemptedAt),
    last_payload: parsed.hasPayload ? parsed.payloadText : sql.ref<string | null>('last_payload'),
    review: change.review === null ? null : JSON.stringify(change.review),
    ...effectColumns(dialect, change.effect),
  };
}

/**
 * Serialises claims of the same reference value across records and kinds. The per-column
 * unique constraints cannot see a controlNumber equal to another record's txnid; a
 * transaction-scoped advisory lock per value (taken in a fixed order, so two claimers never
 * deadlock) makes the ownership check exact on PostgreSQL. SQLite has one writer.
 */
async function lockValues(trx: Db, dialect: SqlDialectName, values: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const value of [...new Set(values)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${value}, 0))`.execute(trx);
  }
}

/** A record other than `self` holding one of `values` under any reference kind, if any. */
async function ownerOf(
  db: Db,
  values: readonly string[],
  self: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .where('merchant_reference', '<>', self)
    .where((eb) =>
      eb.or([
        eb('merchant_reference', 'in', values),
        ...Object.values(referenceColumns).map((column) => eb(column, 'in', values)),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row?.merchant_reference;
}

/**
 * A unique violation that slipped past the ownership check (another process won the race)
 * becomes the same ReferenceConflictError the check would have raised.
 */
export async function explainConflict(
  db: Db,
  error: unknown,
  self: string,
  refs: References,
): Promise<unknown> {
  const column = uniqueViolationColumn(error);
  if (column === undefined || column === 'merchant_reference') return error;
  const field = (Object.keys(referenceColumns) as PlatformReferenceField[]).find(
    (candidate) => referenceColumns[candidate] === column,
  );
  const value = field && refs[field];
  if (field === undefined || value === undefined) return error;
  const owner = (await ownerOf(db, [value], self)) ?? 'another transaction';
  const conflict = ownedElsewhere(self, field, value, owner);
  (conflict as { cause?: unknown }).cause = error;
  return conflict;
}
