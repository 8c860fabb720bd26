import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { ParsedAnswerWrite, ParsedTransition } from '../input-rules.js';
import { statusChange } from '../record-changes.js';
import type { References, TransactionIntent, TransactionRecord } from '../types.js';
import { writeAnswer } from './answer-write.js';
import {
  claimReferences,
  type Db,
  explainConflict,
  lockRecord,
  statusColumns,
} from './record-claims.js';
import { assertLeaseRow } from './schedule.js';
import type { SqlStoreContext } from './sql-store-context.js';
import type { SqliteMoneyWrites } from './sqlite-money-writes.js';
import { toCents, toRecord, transactionsTable } from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';

/**
 * The SQL store's writes to its records (TransactionRecords): the money call's intent and
 * answer, references attached, a status moved, a check counted. Every change is one transaction
 * that locks the record (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite has one writer at a
 * time), decides with the same rules as the memory store, then writes. The unique constraints
 * are the last word on who owns a reference. Its input is checked already (sql-store.ts).
 */
export class SqlRecordWrites {
  readonly #store: SqlStoreContext;
  /** SQLite: the money call's two writes without Kysely (sqlite-money-writes.ts). */
  readonly #moneyWrites: SqliteMoneyWrites | undefined;

  constructor(store: SqlStoreContext, moneyWrites: SqliteMoneyWrites | undefined) {
    this.#store = store;
    this.#moneyWrites = moneyWrites;
  }

  async createIntent(parsed: TransactionIntent): Promise<TransactionRecord> {
    const at = this.#store.now();
    const now = this.#store.instant(at);
    try {
      const written = this.#store.open() && this.#moneyWrites?.createIntent(parsed, at);
      if (written !== undefined) return written;
      const row = await this.#store
        .open()
        .insertInto(transactionsTable)
        .values({
          merchant_reference: parsed.merchantReference,
          product: parsed.product,
          flow: parsed.flow,
          amount_cents: toCents(parsed.amount),
          msisdn: parsed.msisdn ?? null,
          status: 'initiating',
          status_reason: null,
          created_at: now,
          updated_at: now,
          check_count: 0,
          last_payload: null,
          metadata: JSON.stringify(parsed.metadata ?? {}),
          effect_status: 'none',
          effect_attempts: 0,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    } catch (error) {
      if (uniqueViolationColumn(error) === 'merchant_reference') {
        throw new DuplicateReferenceError(parsed.merchantReference, { cause: error });
      }
      throw error;
    }
  }

  async attachReferences(reference: string, parsed: References): Promise<TransactionRecord> {
    try {
      return await this.#store
        .open()
        .transaction()
        .execute((trx) => this.#attach(trx, reference, parsed));
    } catch (error) {
      throw await explainConflict(this.#store.database, error, reference, parsed);
    }
  }

  async transition(
    reference: string,
    parsed: ParsedTransition,
    leaseToken: string | undefined,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    return this.#store
      .open()
      .transaction()
      .execute(async (trx) => {
        const record = await lockRecord(trx, this.#store.dialect, reference);
        return this.#move(trx, record, parsed, leaseToken);
      });
  }

  async attachAndTransition(
    answer: ParsedAnswerWrite,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    return writeAnswer(
      {
        db: this.#store.open(),
        dialect: this.#store.dialect,
        now: this.#store.now,
        moneyWrites: this.#moneyWrites,
      },
      answer,
    );
  }

  async recordCheck(reference: string, checkedAt: Date): Promise<TransactionRecord> {
    // One statement: the count is incremented by the engine, so concurrent checks all count.
    const row = await this.#store
      .open()
      .updateTable(transactionsTable)
      .set((eb) => ({
        last_checked_at: this.#store.instant(checkedAt),
        check_count: eb('check_count', '+', 1),
        updated_at: this.#store.instant(this.#store.now()),
      }))
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new TransactionNotFoundError(reference);
    return toRecord(row);
  }

  /** attachReferences inside `trx`: the record with `refs` attached. */
  async #attach(trx: Db, reference: string, parsed: References): Promise<TransactionRecord> {
    const record = await lockRecord(trx, this.#store.dialect, reference);
    const columns = await claimReferences(trx, this.#store.dialect, record, parsed);
    if (columns === undefined) return record;
    const row = await trx
      .updateTable(transactionsTable)
      .set({ ...columns, updated_at: this.#store.instant(this.#store.now()) })
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /** transition inside `trx`, of `record` as locked and read there. */
  async #move(
    trx: Db,
    record: TransactionRecord,
    parsed: ParsedTransition,
    leaseToken: string | undefined,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const reference = record.merchantReference;
    if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
    const change = statusChange(record, parsed, this.#store.now());
    if (change === undefined) return { record, changed: false };
    const row = await trx
      .updateTable(transactionsTable)
      .set({
        updated_at: this.#store.instant(change.updatedAt),
        ...statusColumns(this.#store.dialect, change, parsed),
      })
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { record: toRecord(row), changed: true };
  }
}
