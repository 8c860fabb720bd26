import type { UpdateObject } from 'kysely';
import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { amountToCents } from '../../schemas/amount.js';
import type { ParsedListOpen, RecordsPart } from '../checked-parts.js';
import type { ParsedIntent, ParsedMove } from '../input-rules.js';
import type { ReferenceField, TransactionRecord } from '../record.js';
import { applyChange } from '../record-changes.js';
import { providerOf } from '../summary.js';
import type { MoveCommit } from '../types.js';
import { listed, recordsByCreation } from './operations-query.js';
import {
  changeColumns,
  claimReferences,
  type Db,
  explainConflict,
  lockRecord,
} from './record-claims.js';
import { assertLeaseRow } from './schedule.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { referenceColumns, type StoreDatabase, toRecord, transactionsTable } from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';
import { endReservation, reserveFloat } from './wallet-float.js';

/**
 * The records over SQL. Each write is one transaction that locks the record, decides with the
 * memory store's rules, then writes; the unique constraints have the last word on who owns a
 * reference.
 */
export class SqlRecords implements RecordsPart {
  readonly #sql: SqlStoreContext;
  constructor(sql: SqlStoreContext) {
    this.#sql = sql;
  }
  async create(parsed: ParsedIntent): Promise<TransactionRecord> {
    const { reservation } = parsed;
    try {
      if (reservation === undefined) return await this.#insertIntent(this.#sql.open(), parsed);
      // The intent and its float in one commit: neither is ever stored without the other.
      return await this.#sql
        .open()
        .transaction()
        .execute(async (trx) => {
          const record = await this.#insertIntent(trx, parsed);
          await reserveFloat(trx, reservation);
          return record;
        });
    } catch (error) {
      if (uniqueViolationColumn(error) === 'merchant_reference') {
        throw new DuplicateReferenceError(parsed.merchantReference, { cause: error });
      }
      throw error;
    }
  }
  async #insertIntent(db: Db, parsed: ParsedIntent): Promise<TransactionRecord> {
    const now = this.#sql.instant(this.#sql.now());
    const row = await db
      .insertInto(transactionsTable)
      .values({
        merchant_reference: parsed.merchantReference,
        product: parsed.product,
        flow: parsed.flow,
        amount_cents: amountToCents(parsed.amount),
        msisdn: parsed.msisdn ?? null,
        provider: providerOf(parsed.msisdn),
        status: 'initiating',
        status_reason: null,
        created_at: now,
        updated_at: now,
        check_count: 0,
        last_payload: null,
        metadata: JSON.stringify(parsed.metadata ?? {}),
        account_environment: parsed.account?.environment ?? null,
        account_login: parsed.account?.login ?? null,
        effect_status: 'none',
        effect_attempts: 0,
        check_log_seq: 0,
        float_account: parsed.reservation?.account ?? null,
        float_cents: parsed.reservation?.cents ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }
  /**
   * One transaction that locks the row, checks the fence and the expected status, claims the
   * references (the unique constraints have the last word on who owns one) and writes the change.
   */
  async move(reference: string, move: ParsedMove): Promise<MoveCommit> {
    const { dialect } = this.#sql;
    const { references, change, leaseToken } = move;
    try {
      return await this.#sql
        .open()
        .transaction()
        .execute(async (trx) => {
          const { record, held } = await lockRecord(trx, dialect, reference);
          if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
          if (record.status !== move.expected) return { record, applied: false };
          const claimed = await claimReferences(trx, dialect, record, references);
          if (claimed === undefined && change === undefined) return { record, applied: true };
          const now = this.#sql.now();
          const released = change && (await endReservation(trx, held, change.status));
          const updated = await this.#update(trx, reference, {
            ...(claimed ?? {}),
            updated_at: this.#sql.instant(now),
            ...(change ? changeColumns(dialect, applyChange(record, change, now), change) : {}),
            ...released,
          });
          return { record: updated, applied: true };
        });
    } catch (error) {
      throw await explainConflict(this.#sql.database, error, reference, references);
    }
  }
  async find(by: {
    field?: ReferenceField;
    value: string;
  }): Promise<TransactionRecord | undefined> {
    const { field, value } = by;
    if (field === undefined) return this.#findAny(value);
    const column = field === 'merchantReference' ? 'merchant_reference' : referenceColumns[field];
    const row = await this.#select().where(column, '=', value).executeTakeFirst();
    return row && toRecord(row);
  }
  async getMany(references: string[]): Promise<Map<string, TransactionRecord>> {
    const rows = await this.#select().where('merchant_reference', 'in', references).execute();
    return new Map(rows.map((row) => [row.merchant_reference, toRecord(row)]));
  }
  async #findAny(value: string): Promise<TransactionRecord | undefined> {
    const own = await this.find({ field: 'merchantReference', value });
    if (own) return own;
    const row = await this.#select()
      .where((eb) => eb.or(Object.values(referenceColumns).map((column) => eb(column, '=', value))))
      .orderBy('merchant_reference')
      .limit(1)
      .executeTakeFirst();
    return row && toRecord(row);
  }
  async list(filter: ParsedListOpen): Promise<TransactionRecord[]> {
    if (filter.oldestFirst) {
      return (await recordsByCreation(this.#sql.open(), this.#sql.dialect, filter)).map(toRecord);
    }
    const rows = await this.#select()
      .$call((qb) => listed(qb, this.#sql.dialect, filter))
      // The order of compareForReconciliation.
      .orderBy('last_checked_at', (ob) => ob.asc().nullsFirst())
      .orderBy('created_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(filter.limit)
      .execute();
    return rows.map(toRecord);
  }
  async #update(
    trx: Db,
    reference: string,
    columns: UpdateObject<StoreDatabase, typeof transactionsTable>,
  ): Promise<TransactionRecord> {
    const row = await trx
      .updateTable(transactionsTable)
      .set(columns)
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }
  #select() {
    return this.#sql.open().selectFrom(transactionsTable).selectAll();
  }
}
