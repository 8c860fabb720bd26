import type { parseResolve } from '../input-rules.js';
import { resolution } from '../record-changes.js';
import type { TransactionRecord } from '../types.js';
import { effectColumns } from './effects.js';
import { lockRecord } from './record-claims.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { toRecord, transactionsTable } from './table.js';

/**
 * The SQL store's review queue (ReviewQueue): the records a person must decide, and the
 * decision written — with the effect it makes due — in one transaction that locks the record.
 * Its input is checked already (sql-store.ts).
 */
export class SqlReviewQueue {
  readonly #store: SqlStoreContext;

  constructor(store: SqlStoreContext) {
    this.#store = store;
  }

  async resolve(
    reference: string,
    decision: ReturnType<typeof parseResolve>,
  ): Promise<TransactionRecord> {
    const { dialect } = this.#store;
    return this.#store
      .open()
      .transaction()
      .execute(async (trx) => {
        const record = await lockRecord(trx, dialect, reference);
        const change = resolution(record, decision, this.#store.now());
        const row = await trx
          .updateTable(transactionsTable)
          .set({
            status: change.status,
            status_reason: change.statusReason,
            updated_at: this.#store.instant(change.updatedAt),
            resolution: JSON.stringify(change.resolution),
            ...effectColumns(dialect, change.effect),
          })
          .where('merchant_reference', '=', reference)
          .returningAll()
          .executeTakeFirstOrThrow();
        return toRecord(row);
      });
  }

  /** `needs_review` records in merchant-reference order, the page after `after`. */
  async list(limit: number, after: string | undefined): Promise<TransactionRecord[]> {
    const rows = await this.#store
      .open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('status', '=', 'needs_review')
      .$if(after !== undefined, (qb) => qb.where('merchant_reference', '>', after as string))
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }
}
