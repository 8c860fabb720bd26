import type { Kysely } from 'kysely';
import { guardPart } from '../../errors/store-error.js';
import type { Product } from '../../schemas/product.js';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import {
  checkedEffects,
  checkedRecords,
  checkedReports,
  checkedSchedule,
  checkedWallets,
  type ReportsPart,
} from '../checked-parts.js';
import type { EffectOutbox } from '../effects.js';
import { SqlCallbackInbox } from '../inbox/sql-inbox.js';
import type { CallbackInbox } from '../inbox/types.js';
import { bucketClock } from '../rate-limit/bucket-clock.js';
import { checkedRateLimit } from '../rate-limit/checked-rate-limit.js';
import type { SharedRateLimit } from '../rate-limit/types.js';
import type { SchedulingStore } from '../schedule/types.js';
import { bySummaryOrder } from '../summary.js';
import { openStatuses } from '../transitions.js';
import type { ReferenceStore, StoreReports, TransactionRecords } from '../types.js';
import type { WalletFloat } from '../wallet-float.js';
import { SqlEffectOutbox } from './effects.js';
import { finalTalliesOf } from './operations-query.js';
import { SqlRateLimit } from './rate-limit.js';
import { leaseDueRows, readObservationRows, releaseLeaseRow } from './schedule.js';
import { SqlRecords } from './sql-records.js';
import { SqlStoreContext } from './sql-store-context.js';
import {
  fromInstant,
  type SqlDialectName,
  type StoreDatabase,
  toRecord,
  transactionsTable,
} from './table.js';
import { walletSettled, writeWalletBalance } from './wallet-float.js';

export interface SqlReferenceStoreOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/** The store over SQL (SQLite and PostgreSQL): its parts over one database, dialect and clock. */
export class SqlReferenceStore implements ReferenceStore {
  readonly records: TransactionRecords;
  readonly schedule: SchedulingStore;
  readonly effects: EffectOutbox;
  readonly inbox: CallbackInbox;
  readonly wallets: WalletFloat;
  readonly rateLimit: SharedRateLimit;
  readonly reports: StoreReports;
  readonly #sql: SqlStoreContext;
  readonly #release: () => Promise<void>;
  protected constructor(
    db: Kysely<StoreDatabase>,
    dialect: SqlDialectName,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
  ) {
    const sql = new SqlStoreContext(db, dialect, options.now ?? (() => new Date()));
    this.#sql = sql;
    this.#release = release;
    this.records = checkedRecords(new SqlRecords(sql));
    this.schedule = checkedSchedule({
      lease: (options) => leaseDueRows(sql.open(), dialect, options, sql.now()),
      release: (reference, options) =>
        releaseLeaseRow(sql.open(), dialect, reference, options, sql.now()),
      observations: (reference) => readObservationRows(sql.open(), reference),
    });
    this.effects = checkedEffects(new SqlEffectOutbox(sql));
    this.inbox = guardPart('inbox', new SqlCallbackInbox(() => sql.open(), dialect, sql.now));
    this.wallets = checkedWallets({
      recordBalance: async (account, readCents) => {
        const settled = await walletSettled(sql.open(), dialect, account);
        const cents = await readCents();
        const readAt = sql.instant(sql.now());
        return writeWalletBalance(sql.open(), { account, cents, settled, readAt });
      },
    });
    const bucketNow = options.now ?? bucketClock;
    const rateLimit = new SqlRateLimit(() => sql.open(), dialect, bucketNow);
    this.rateLimit = checkedRateLimit(guardPart('rateLimit', rateLimit));
    this.reports = checkedReports(sqlReports(sql), sql.now);
  }
  async close(): Promise<void> {
    if (this.#sql.closed) return;
    this.#sql.close();
    await this.#release();
  }
}

/** The reports counted in the database. */
function sqlReports(sql: SqlStoreContext): ReportsPart {
  return {
    summary: async () => {
      const db = sql.open();
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
    },
    operations: (window) => finalTalliesOf(sql.open(), sql.dialect, window),
    review: async (limit, after) => {
      const rows = await sql
        .open()
        .selectFrom(transactionsTable)
        .selectAll()
        .where('status', '=', 'needs_review')
        .$if(after !== undefined, (qb) => qb.where('merchant_reference', '>', after as string))
        .orderBy('merchant_reference', 'asc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
  };
}
