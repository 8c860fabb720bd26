import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Updateable } from 'kysely';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { EffectClaim, EffectKind } from '../effects.js';
import { effectKinds } from '../effects.js';
import type { ParsedClaim } from '../input-rules.js';
import { byEffectDue } from '../reconciliation-order.js';
import type { EffectState, EffectStatus, TransactionRecord } from '../record.js';
import type { SqlStoreContext } from './sql-store-context.js';
import {
  type SqlDialectName,
  type StoreDatabase,
  type TransactionsTable,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';

/** The columns of an effect state; a new state always drops any lease. */
export function effectColumns(dialect: SqlDialectName, effect: EffectState) {
  return {
    effect_status: effect.status,
    effect_attempts: effect.attempts,
    effect_due_at: effect.dueAt && toInstant(dialect, effect.dueAt),
    effect_last_error: effect.lastError,
    effect_completed_at: effect.completedAt && toInstant(dialect, effect.completedAt),
    effect_lease_token: null,
    effect_lease_until: null,
  };
}

/** The SQL store's effect outbox; its input is checked already. */
export class SqlEffectOutbox {
  readonly #store: SqlStoreContext;
  constructor(store: SqlStoreContext) {
    this.#store = store;
  }
  async claim(options: ParsedClaim): Promise<EffectClaim[]> {
    const { leaseMs, limit, merchantReference, handles } = options;
    const { dialect } = this.#store;
    const now = this.#store.now();
    const at = toInstant(dialect, now);
    const token = randomUUID();
    const db = this.#store.open();
    const due = db
      .selectFrom(transactionsTable)
      .select('merchant_reference')
      .where((eb) =>
        eb.or([
          eb.and([eb('effect_status', '=', 'due'), eb('effect_due_at', '<=', at)]),
          eb.and([eb('effect_status', '=', 'running'), eb('effect_lease_until', '<=', at)]),
        ]),
      )
      .where((eb) => handledBy(eb, handles))
      .$if(merchantReference !== undefined, (qb) =>
        qb.where('merchant_reference', '=', merchantReference as string),
      )
      .orderBy('effect_due_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
    const rows = await db
      .updateTable(transactionsTable)
      .set((eb) => ({
        effect_status: 'running',
        effect_attempts: eb('effect_attempts', '+', 1),
        effect_lease_token: token,
        effect_lease_until: toInstant(dialect, new Date(now.getTime() + leaseMs)),
      }))
      .where('merchant_reference', 'in', due)
      .returningAll()
      .execute();
    // UPDATE … RETURNING has no order.
    return rows
      .map((row) => ({ record: toRecord(row), token }))
      .sort((a, b) => byEffectDue(a.record, b.record));
  }
  async complete(reference: string, token: string): Promise<boolean> {
    return this.#fenced(reference, token, {
      effect_status: 'done',
      effect_due_at: null,
      effect_last_error: null,
      effect_completed_at: this.#store.instant(this.#store.now()),
    });
  }
  async fail(
    reference: string,
    token: string,
    failure: { error: string; retryAt: Date | null },
  ): Promise<boolean> {
    const { error, retryAt } = failure;
    return this.#fenced(reference, token, {
      effect_status: retryAt === null ? 'dead' : 'due',
      effect_due_at: retryAt && this.#store.instant(retryAt),
      effect_last_error: error,
    });
  }
  async list(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    limit: number,
    handles: readonly EffectKind[],
  ): Promise<TransactionRecord[]> {
    const rows = await this.#store
      .open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('effect_status', '=', status)
      .where((eb) => handledBy(eb, handles))
      .orderBy('effect_due_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }
  /** One conditional statement: of two people retrying at once, one wins, the other is told. */
  async retry(reference: string): Promise<{ record: TransactionRecord; retried: boolean }> {
    const db = this.#store.open();
    const row = await db
      .updateTable(transactionsTable)
      .set({
        effect_status: 'due',
        effect_attempts: 0,
        effect_due_at: this.#store.instant(this.#store.now()),
      })
      .where('merchant_reference', '=', reference)
      .where('effect_status', '=', 'dead')
      .returningAll()
      .executeTakeFirst();
    if (row) return { record: toRecord(row), retried: true };
    const current = await db
      .selectFrom(transactionsTable)
      .selectAll()
      .where('merchant_reference', '=', reference)
      .executeTakeFirst();
    if (!current) throw new TransactionNotFoundError(reference);
    return { record: toRecord(current), retried: false };
  }
  /** One statement: a worker whose lease expired writes nothing. */
  async #fenced(
    reference: string,
    token: string,
    columns: Updateable<TransactionsTable>,
  ): Promise<boolean> {
    const result = await this.#store
      .open()
      .updateTable(transactionsTable)
      .set({ ...columns, effect_lease_token: null, effect_lease_until: null })
      .where('merchant_reference', '=', reference)
      .where('effect_status', '=', 'running')
      .where('effect_lease_token', '=', token)
      .where('effect_lease_until', '>', this.#store.instant(this.#store.now()))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/** The effects of these kinds, by the record's status and product (no kinds: none). */
function handledBy(
  eb: ExpressionBuilder<StoreDatabase, typeof transactionsTable>,
  handles: readonly EffectKind[],
) {
  return eb.or(
    handles.map((kind) =>
      eb.and([
        eb('status', '=', effectKinds[kind].status),
        eb('product', 'in', effectKinds[kind].products),
      ]),
    ),
  );
}
