import type { UpdateObject } from 'kysely';
import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { ParsedAnswerWrite, ParsedTransition, parseResolve } from '../input-rules.js';
import { resolution, type StatusChange, statusChange } from '../record-changes.js';
import type { References, TransactionIntent, TransactionRecord } from '../types.js';
import { effectColumns } from './effects.js';
import {
  claimReferences,
  type Db,
  explainConflict,
  lockRecord,
  statusColumns,
} from './record-claims.js';
import { assertLeaseRow } from './schedule.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { type StoreDatabase, toCents, toRecord, transactionsTable } from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';

type ParsedResolve = ReturnType<typeof parseResolve>;

/**
 * The SQL store's record writes: each one transaction that locks the record, decides with the
 * memory store's rules (record-changes.ts), then writes; the unique constraints have the last
 * word on who owns a reference. Its input is checked already.
 */
export class SqlRecordWrites {
  readonly #store: SqlStoreContext;

  constructor(store: SqlStoreContext) {
    this.#store = store;
  }

  async createIntent(parsed: TransactionIntent): Promise<TransactionRecord> {
    const now = this.#store.instant(this.#store.now());
    try {
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
          check_log_seq: 0,
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

  /** A refused move is decided in code, so the references commit and the refusal follows. */
  async attachAndTransition(
    answer: ParsedAnswerWrite,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const { dialect } = this.#store;
    const { merchantReference: reference, refs, transition, leaseToken } = answer;
    let refused: unknown;
    let result: { record: TransactionRecord; changed: boolean };
    try {
      result = await this.#store
        .open()
        .transaction()
        .execute(async (trx) => {
          const record = await lockRecord(trx, dialect, reference);
          if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
          const claimed = await claimReferences(trx, dialect, record, refs);
          const at = this.#store.now();
          let change: StatusChange | undefined;
          try {
            change = statusChange(record, transition, at);
          } catch (error) {
            if (!isInvalidTransitionError(error)) throw error;
            refused = error;
          }
          if (claimed === undefined && change === undefined) return { record, changed: false };
          const updated = await this.#update(trx, reference, {
            ...(claimed ?? {}),
            updated_at: this.#store.instant(at),
            ...(change === undefined ? {} : statusColumns(dialect, change, transition)),
          });
          return { record: updated, changed: change !== undefined };
        });
    } catch (error) {
      throw await explainConflict(this.#store.database, error, reference, refs);
    }
    if (refused !== undefined) throw refused;
    return result;
  }

  async resolve(reference: string, decision: ParsedResolve): Promise<TransactionRecord> {
    const { dialect } = this.#store;
    return this.#store
      .open()
      .transaction()
      .execute(async (trx) => {
        const record = await lockRecord(trx, dialect, reference);
        const change = resolution(record, decision, this.#store.now());
        return this.#update(trx, reference, {
          status: change.status,
          status_reason: change.statusReason,
          updated_at: this.#store.instant(change.updatedAt),
          resolution: JSON.stringify(change.resolution),
          ...effectColumns(dialect, change.effect),
        });
      });
  }

  async recordCheck(reference: string, checkedAt: Date): Promise<TransactionRecord> {
    // The engine increments the count, so concurrent checks all count.
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

  async #attach(trx: Db, reference: string, parsed: References): Promise<TransactionRecord> {
    const record = await lockRecord(trx, this.#store.dialect, reference);
    const columns = await claimReferences(trx, this.#store.dialect, record, parsed);
    if (columns === undefined) return record;
    return this.#update(trx, reference, {
      ...columns,
      updated_at: this.#store.instant(this.#store.now()),
    });
  }

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
    const updated = await this.#update(trx, reference, {
      updated_at: this.#store.instant(change.updatedAt),
      ...statusColumns(this.#store.dialect, change, parsed),
    });
    return { record: updated, changed: true };
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
}
