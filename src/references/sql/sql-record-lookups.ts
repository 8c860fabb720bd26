import type { ReferenceField, TransactionRecord, TransactionStatus } from '../types.js';
import type { SqlStoreContext } from './sql-store-context.js';
import { referenceColumns, toRecord, transactionsTable } from './table.js';

/** The SQL store's reads of its records; its input is checked already. */
export class SqlRecordLookups {
  readonly #store: SqlStoreContext;

  constructor(store: SqlStoreContext) {
    this.#store = store;
  }

  async find(field: ReferenceField, value: string): Promise<TransactionRecord | undefined> {
    const column = field === 'merchantReference' ? 'merchant_reference' : referenceColumns[field];
    const row = await this.#store
      .open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The first record, by merchant reference, holding `reference` as any platform reference. */
  async findByPlatformReference(reference: string): Promise<TransactionRecord | undefined> {
    const row = await this.#store
      .open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where((eb) =>
        eb.or(Object.values(referenceColumns).map((column) => eb(column, '=', reference))),
      )
      .orderBy('merchant_reference')
      .limit(1)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async listOpen(filter: {
    statuses: readonly TransactionStatus[];
    product: string | undefined;
    checkedBefore: Date | undefined;
    limit: number;
  }): Promise<TransactionRecord[]> {
    const { statuses, product, checkedBefore, limit } = filter;
    const rows = await this.#store
      .open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('status', 'in', [...statuses])
      .$if(product !== undefined, (qb) => qb.where('product', '=', product as string))
      .$if(checkedBefore !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('last_checked_at', 'is', null),
            eb('last_checked_at', '<', this.#store.instant(checkedBefore as Date)),
          ]),
        ),
      )
      // Same order as compareForReconciliation (reconciliation-order.ts).
      .orderBy('last_checked_at', (ob) => ob.asc().nullsFirst())
      .orderBy('created_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async listReview(limit: number, after: string | undefined): Promise<TransactionRecord[]> {
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
