import type { UpdateObject } from 'kysely';
import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import { amountToCents } from '../../schemas/amount.js';
import { CheckedReferenceStore, type Moved, type ParsedResolve } from '../checked-store.js';
import type { ParsedAnswerWrite, ParsedIntent, ParsedTransition } from '../input-rules.js';
import type { References, TransactionRecord } from '../record.js';
import { resolution, type StatusChange, statusChange } from '../record-changes.js';
import { providerOf } from '../summary.js';
import type { WalletFloatState } from '../wallet-float.js';
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
  protected async attach(reference: string, parsed: References): Promise<TransactionRecord> {
    return (await this.#write(reference, parsed, undefined, undefined)).record;
  }
  protected move(
    reference: string,
    parsed: ParsedTransition,
    leaseToken: string | undefined,
  ): Promise<Moved> {
    return this.#write(reference, {}, parsed, leaseToken);
  }
  protected writeAnswer(answer: ParsedAnswerWrite): Promise<Moved> {
    const { merchantReference, refs, transition, leaseToken } = answer;
    return this.#write(merchantReference, refs, transition, leaseToken);
  }
  /**
   * References, status or both in one transaction. A refused move is decided in code, so the
   * references commit and the refusal follows.
   */
  async #write(
    reference: string,
    refs: References,
    transition: ParsedTransition | undefined,
    leaseToken: string | undefined,
  ): Promise<Moved> {
    const { dialect } = this.sql;
    let refused: unknown;
    let result: Moved;
    try {
      result = await this.sql
        .open()
        .transaction()
        .execute(async (trx) => {
          const { record, held } = await lockRecord(trx, dialect, reference);
          if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
          const claimed = await claimReferences(trx, dialect, record, refs);
          const at = this.sql.now();
          let change: StatusChange | undefined;
          try {
            change = transition && statusChange(record, transition, at);
          } catch (error) {
            if (!isInvalidTransitionError(error)) throw error;
            refused = error;
          }
          const from = record.status;
          if (claimed === undefined && change === undefined)
            return { record, changed: false, from };
          const released = change && (await endReservation(trx, held, change.status));
          const updated = await this.#update(trx, reference, {
            ...(claimed ?? {}),
            updated_at: this.sql.instant(at),
            ...(change && transition ? statusColumns(dialect, change, transition) : {}),
            ...released,
          });
          return { record: updated, changed: change !== undefined, from };
        });
    } catch (error) {
      throw await explainConflict(this.sql.database, error, reference, refs);
    }
    if (refused !== undefined) throw refused;
    return result;
  }
  protected async writeResolution(
    reference: string,
    decision: ParsedResolve,
  ): Promise<TransactionRecord> {
    const { dialect } = this.sql;
    return this.sql
      .open()
      .transaction()
      .execute(async (trx) => {
        const { record, held } = await lockRecord(trx, dialect, reference);
        const change = resolution(record, decision, this.sql.now());
        const released = await endReservation(trx, held, change.status);
        return this.#update(trx, reference, {
          status: change.status,
          status_reason: change.statusReason,
          updated_at: this.sql.instant(change.updatedAt),
          final_at: change.finalAt && this.sql.instant(change.finalAt),
          resolution: JSON.stringify(change.resolution),
          ...effectColumns(dialect, change.effect),
          ...released,
        });
      });
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
