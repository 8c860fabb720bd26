import { type Kysely, sql, type Transaction } from 'kysely';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { ParsedChange } from '../input-rules.js';
import type { PlatformReferenceField, References, TransactionRecord } from '../record.js';
import {
  type AppliedChange,
  newReferences,
  ownedElsewhere,
  platformReferenceFields,
} from '../record-changes.js';
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

export type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

/** A payout's hold on its wallet, as its record's row keeps it until the record is final. */
export interface HeldFloat {
  account: string;
  cents: number;
}

/**
 * Locks the row on PostgreSQL until the transaction ends; SQLite has one writer. With the record,
 * the float it holds, if any.
 */
export async function lockRecord(
  trx: Db,
  dialect: SqlDialectName,
  merchantReference: string,
): Promise<{ record: TransactionRecord; held: HeldFloat | undefined }> {
  const row = await trx
    .selectFrom(transactionsTable)
    .selectAll()
    .where('merchant_reference', '=', merchantReference)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw new TransactionNotFoundError(merchantReference);
  const { float_account: account, float_cents: cents } = row;
  const held = account !== null && cents !== null ? { account, cents: Number(cents) } : undefined;
  return { record: toRecord(row), held };
}

/** The reference columns to set (undefined: nothing new); a conflict throws, writing nothing. */
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
  // One query for all; only on a conflict one by one, to name the first.
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

/** The columns of a committed change; the payload as the move's own JSON text. */
export function changeColumns(
  dialect: SqlDialectName,
  applied: AppliedChange,
  change: ParsedChange,
) {
  return {
    status: applied.status,
    status_reason: applied.statusReason,
    attempted_at: applied.attemptedAt && toInstant(dialect, applied.attemptedAt),
    final_at: applied.finalAt && toInstant(dialect, applied.finalAt),
    provider: applied.provider,
    last_payload:
      change.payloadText === undefined
        ? sql.ref<string | null>('last_payload')
        : change.payloadText,
    review: applied.review === null ? null : JSON.stringify(applied.review),
    resolution: applied.resolution === null ? null : JSON.stringify(applied.resolution),
    ...effectColumns(dialect, applied.effect),
  };
}

/**
 * Per-column unique constraints cannot see a controlNumber equal to another record's txnid: an
 * advisory lock per value (in a fixed order: no deadlock) makes the check exact on PostgreSQL.
 */
async function lockValues(trx: Db, dialect: SqlDialectName, values: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const value of [...new Set(values)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${value}, 0))`.execute(trx);
  }
}

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

/** A unique violation from a lost race becomes the conflict the check would have raised. */
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
