import type { EffectClaim, EffectStatus } from '../effects.js';
import type { TransactionRecord } from '../types.js';
import { claimEffectRows, fencedEffectWrite } from './effects.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { toRecord, transactionsTable } from './table.js';

/**
 * The SQL store's effect outbox (EffectOutbox): which settled records' handlers are due, the
 * claim on running one, and the fenced writes that finish it (their SQL: effects.ts). Its input
 * is checked already (sql-store.ts).
 */
export class SqlEffectOutbox {
  readonly #store: SqlStoreContext;

  constructor(store: SqlStoreContext) {
    this.#store = store;
  }

  /** Leases up to `limit` due effects (one record's, with `merchantReference`), oldest first. */
  async claim(options: {
    leaseMs: number;
    limit: number;
    merchantReference: string | undefined;
  }): Promise<EffectClaim[]> {
    return claimEffectRows(this.#store.open(), this.#store.dialect, options, this.#store.now());
  }

  /** Marks the effect done; false (nothing written) unless `token` still holds its lease. */
  async complete(reference: string, token: string): Promise<boolean> {
    const now = this.#store.now();
    return fencedEffectWrite(this.#store.open(), this.#store.dialect, reference, token, now, {
      effect_status: 'done',
      effect_due_at: null,
      effect_last_error: null,
      effect_completed_at: this.#store.instant(now),
    });
  }

  /** Due again at `retryAt`, or dead when null; false unless `token` still holds its lease. */
  async fail(
    reference: string,
    token: string,
    failure: { error: string; retryAt: Date | null },
  ): Promise<boolean> {
    const { error, retryAt } = failure;
    const { dialect } = this.#store;
    return fencedEffectWrite(this.#store.open(), dialect, reference, token, this.#store.now(), {
      effect_status: retryAt === null ? 'dead' : 'due',
      effect_due_at: retryAt && this.#store.instant(retryAt),
      effect_last_error: error,
    });
  }

  async list(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    limit: number,
  ): Promise<TransactionRecord[]> {
    const rows = await this.#store
      .open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('effect_status', '=', status)
      .orderBy('effect_due_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }
}
