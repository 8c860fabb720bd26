import type { Kysely } from 'kysely';
import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import type { ParsedAnswerWrite } from '../input-rules.js';
import { type StatusChange, statusChange } from '../record-changes.js';
import type { TransactionRecord } from '../types.js';
import { claimReferences, explainConflict, lockRecord, statusColumns } from './record-claims.js';
import { assertLeaseRow } from './schedule.js';
import type { SqliteMoneyWrites } from './sqlite-money-writes.js';
import {
  type SqlDialectName,
  type StoreDatabase,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';

/** What the SQL store's answer write works with. */
export interface AnswerWriteContext {
  readonly db: Kysely<StoreDatabase>;
  readonly dialect: SqlDialectName;
  readonly now: () => Date;
  /** SQLite: the hand-written path (sqlite-money-writes.ts); undefined on PostgreSQL. */
  readonly moneyWrites: SqliteMoneyWrites | undefined;
}

/**
 * `attachAndTransition` on SQL: one transaction and one UPDATE — one commit (one fsync on
 * SQLite) where attachReferences then transition made two, and one row write where they made
 * two. A move the status table refuses (the record settled meanwhile) is decided in code, with
 * no failed statement, so the references are still written and the refusal thrown after the
 * commit: what the two calls in turn would do. A lost lease writes nothing, as its error says.
 * On SQLite, without a lease, the same rules run as hand-written statements in one synchronous
 * transaction (sqlite-money-writes.ts).
 */
export async function writeAnswer(
  context: AnswerWriteContext,
  answer: ParsedAnswerWrite,
): Promise<{ record: TransactionRecord; changed: boolean }> {
  const { db, dialect, now } = context;
  const { merchantReference: reference, refs, transition, leaseToken } = answer;
  let refused: unknown;
  let result: { record: TransactionRecord; changed: boolean };
  try {
    const written =
      leaseToken === undefined
        ? context.moneyWrites?.attachAndTransition({
            merchantReference: reference,
            refs,
            transition,
            now: now(),
          })
        : undefined;
    refused = written?.refused;
    result = written
      ? { record: written.record, changed: written.changed }
      : await db.transaction().execute(async (trx) => {
          const record = await lockRecord(trx, dialect, reference);
          if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
          const claimed = await claimReferences(trx, dialect, record, refs);
          const at = now();
          let change: StatusChange | undefined;
          try {
            change = statusChange(record, transition, at);
          } catch (error) {
            if (!isInvalidTransitionError(error)) throw error;
            refused = error;
          }
          if (claimed === undefined && change === undefined) return { record, changed: false };
          const row = await trx
            .updateTable(transactionsTable)
            .set({
              ...(claimed ?? {}),
              updated_at: toInstant(dialect, at),
              ...(change === undefined ? {} : statusColumns(dialect, change, transition)),
            })
            .where('merchant_reference', '=', reference)
            .returningAll()
            .executeTakeFirstOrThrow();
          return { record: toRecord(row), changed: change !== undefined };
        });
  } catch (error) {
    throw await explainConflict(db, error, reference, refs);
  }
  if (refused !== undefined) throw refused;
  return result;
}
