import type { UpdateObject } from 'kysely';
import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import { amountToCents } from '../../schemas/amount.js';
import { CheckedReferenceStore } from '../checked-store.js';
import type { ParsedIntent, ParsedMove } from '../input-rules.js';
import type { TransactionRecord } from '../record.js';
import { applyChange } from '../record-changes.js';
import { providerOf } from '../summary.js';
import type { MoveCommit } from '../types.js';
import type { WalletFloatState } from '../wallet-float.js';
import {
  changeColumns,
  claimReferences,
  type Db,
  explainConflict,
  lockRecord,
} from './record-claims.js';
import { assertLeaseRow } from './schedule.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { type StoreDatabase, toRecord, transactionsTable } from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';
import { endReservation, reserveFloat, walletSettled, writeWalletBalance } from './wallet-float.js';

/**
 * Record writes: each one transaction that locks the record, decides with the memory store's
 * rules, then writes; the unique constraints have the last word on who owns a reference.
 */
export abstract class SqlRecordWrites extends CheckedReferenceStore {
  protected abstract readonly sql: SqlStoreContext;
  protected walletSettled(account: string): Promise<number> {
    return walletSettled(this.sql.open(), this.sql.dialect, account);
  }
  protected writeWalletBalance(
    account: string,
    cents: number,
    settled: number,
  ): Promise<WalletFloatState> {
    const readAt = this.sql.instant(this.sql.now());
    return writeWalletBalance(this.sql.open(), { account, cents, settled, readAt });
  }
  protected async writeIntent(parsed: ParsedIntent): Promise<TransactionRecord> {
    const { reservation } = parsed;
    try {
      if (reservation === undefined) return await this.#insertIntent(this.sql.open(), parsed);
      // The intent and its float in one commit: neither is ever stored without the other.
      return await this.sql
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
    const now = this.sql.instant(this.sql.now());
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
  protected async commitMove(reference: string, move: ParsedMove): Promise<MoveCommit> {
    const { dialect } = this.sql;
    const { references, change, leaseToken } = move;
    try {
      return await this.sql
        .open()
        .transaction()
        .execute(async (trx) => {
          const { record, held } = await lockRecord(trx, dialect, reference);
          if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
          if (record.status !== move.expected) return { record, applied: false };
          const claimed = await claimReferences(trx, dialect, record, references);
          if (claimed === undefined && change === undefined) return { record, applied: true };
          const now = this.sql.now();
          const released = change && (await endReservation(trx, held, change.status));
          const updated = await this.#update(trx, reference, {
            ...(claimed ?? {}),
            updated_at: this.sql.instant(now),
            ...(change ? changeColumns(dialect, applyChange(record, change, now), change) : {}),
            ...released,
          });
          return { record: updated, applied: true };
        });
    } catch (error) {
      throw await explainConflict(this.sql.database, error, reference, references);
    }
  }
  protected async countCheck(reference: string, checkedAt: Date): Promise<TransactionRecord> {
    // The engine increments the count, so concurrent checks all count.
    const row = await this.sql
      .open()
      .updateTable(transactionsTable)
      .set((eb) => ({
        last_checked_at: this.sql.instant(checkedAt),
        check_count: eb('check_count', '+', 1),
        updated_at: this.sql.instant(this.sql.now()),
      }))
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new TransactionNotFoundError(reference);
    return toRecord(row);
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
