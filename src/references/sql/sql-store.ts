import type { Kysely } from 'kysely';
import type { Product } from '../../schemas/product.js';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import type { ParsedListOpen } from '../checked-store.js';
import { SqlCallbackInbox } from '../inbox/sql-inbox.js';
import type { CallbackInbox } from '../inbox/types.js';
import type { FinalTallies, ReportWindow } from '../operations-report.js';
import { bucketClock } from '../rate-limit/bucket-clock.js';
import { checkedRateLimit } from '../rate-limit/checked-rate-limit.js';
import type { SharedRateLimit } from '../rate-limit/types.js';
import type { ReferenceField, TransactionRecord } from '../record.js';
import type { ParsedLeaseDue, ParsedRelease } from '../schedule/input-rules.js';
import type { LeasedRecord } from '../schedule/types.js';
import { bySummaryOrder } from '../summary.js';
import { openStatuses } from '../transitions.js';
import type { StoreSummary } from '../types.js';
import { SqlEffectOutbox } from './effects.js';
import { finalTalliesOf, recordsByCreation } from './operations-query.js';
import { SqlRateLimit } from './rate-limit.js';
import { leaseDueRows, readObservationRows, releaseLeaseRow } from './schedule.js';
import { SqlRecordWrites } from './sql-record-writes.js';
import { SqlStoreContext } from './sql-store-context.js';
import {
  fromInstant,
  referenceColumns,
  type SqlDialectName,
  type StoreDatabase,
  toRecord,
  transactionsTable,
} from './table.js';

export interface SqlReferenceStoreOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/** The store over SQL (SQLite and PostgreSQL): reads, schedule and outbox over its writes. */
export class SqlReferenceStore extends SqlRecordWrites {
  protected readonly sql: SqlStoreContext;
  readonly #release: () => Promise<void>;
  readonly inbox: CallbackInbox;
  readonly rateLimit: SharedRateLimit;
  protected readonly effects: SqlEffectOutbox;
  protected constructor(
    db: Kysely<StoreDatabase>,
    dialect: SqlDialectName,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
  ) {
    super();
    const store = new SqlStoreContext(db, dialect, options.now ?? (() => new Date()));
    this.sql = store;
    this.#release = release;
    this.inbox = new SqlCallbackInbox(() => store.open(), dialect, store.now);
    const bucketNow = options.now ?? bucketClock;
    this.rateLimit = checkedRateLimit(new SqlRateLimit(() => store.open(), dialect, bucketNow));
    this.effects = new SqlEffectOutbox(store);
  }
  protected now(): Date {
    return this.sql.now();
  }
  protected async lookup(
    field: ReferenceField,
    value: string,
  ): Promise<TransactionRecord | undefined> {
    const column = field === 'merchantReference' ? 'merchant_reference' : referenceColumns[field];
    const row = await this.#select().where(column, '=', value).executeTakeFirst();
    return row && toRecord(row);
  }
  protected async lookupMany(references: string[]): Promise<Map<string, TransactionRecord>> {
    const rows = await this.#select().where('merchant_reference', 'in', references).execute();
    return new Map(rows.map((row) => [row.merchant_reference, toRecord(row)]));
  }
  protected async lookupAny(value: string): Promise<TransactionRecord | undefined> {
    const own = await this.lookup('merchantReference', value);
    if (own) return own;
    const row = await this.#select()
      .where((eb) => eb.or(Object.values(referenceColumns).map((column) => eb(column, '=', value))))
      .orderBy('merchant_reference')
      .limit(1)
      .executeTakeFirst();
    return row && toRecord(row);
  }
  protected async listOpenRecords(filter: ParsedListOpen): Promise<TransactionRecord[]> {
    if (filter.oldestFirst) {
      return (await recordsByCreation(this.sql.open(), this.sql.dialect, filter)).map(toRecord);
    }
    const { statuses, product, checkedBefore, limit } = filter;
    const rows = await this.#select()
      .where('status', 'in', [...statuses])
      .$if(product !== undefined, (qb) => qb.where('product', '=', product as string))
      .$if(checkedBefore !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('last_checked_at', 'is', null),
            eb('last_checked_at', '<', this.sql.instant(checkedBefore as Date)),
          ]),
        ),
      )
      // The order of compareForReconciliation.
      .orderBy('last_checked_at', (ob) => ob.asc().nullsFirst())
      .orderBy('created_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }
  protected lease(options: ParsedLeaseDue): Promise<LeasedRecord[]> {
    return leaseDueRows(this.sql.open(), this.sql.dialect, options, this.sql.now());
  }
  protected release(reference: string, options: ParsedRelease): Promise<boolean> {
    return releaseLeaseRow(this.sql.open(), this.sql.dialect, reference, options, this.sql.now());
  }
  protected observationsOf(reference: string): Promise<unknown[]> {
    return readObservationRows(this.sql.open(), reference);
  }
  protected async summaryOf(): Promise<StoreSummary> {
    const db = this.sql.open();
    const rows = await db
      .selectFrom(transactionsTable)
      .select(['product', 'status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy(['product', 'status'])
      .execute();
    const oldest = await db
      .selectFrom(transactionsTable)
      .select((eb) => eb.fn.min('created_at').as('at'))
      .where('status', 'in', [...openStatuses])
      .executeTakeFirst();
    const counts = rows.map((row) => ({
      product: row.product as Product,
      status: row.status as TransactionStatus,
      count: Number(row.count),
    }));
    const at = oldest?.at ?? null;
    return { counts: counts.sort(bySummaryOrder), oldestOpenAt: fromInstant(at) };
  }
  protected finalTallies(window: ReportWindow): Promise<FinalTallies> {
    return finalTalliesOf(this.sql.open(), this.sql.dialect, window);
  }
  protected async reviewPage(
    limit: number,
    after: string | undefined,
  ): Promise<TransactionRecord[]> {
    const rows = await this.#select()
      .where('status', '=', 'needs_review')
      .$if(after !== undefined, (qb) => qb.where('merchant_reference', '>', after as string))
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }
  #select() {
    return this.sql.open().selectFrom(transactionsTable).selectAll();
  }
  async close(): Promise<void> {
    if (this.sql.closed) return;
    this.sql.close();
    await this.#release();
  }
}
