import type { Kysely } from 'kysely';
import {
  CheckedReferenceStore,
  type ParsedListOpen,
  type ParsedResolve,
} from '../checked-store.js';
import { SqlCallbackInbox } from '../inbox/sql-inbox.js';
import type { CallbackInbox } from '../inbox/types.js';
import type { ParsedAnswerWrite, ParsedTransition } from '../input-rules.js';
import type { ParsedLeaseDue, ParsedLeaseRelease, ParsedRelease } from '../schedule/input-rules.js';
import type { LeasedRecord } from '../schedule/types.js';
import type { ReferenceField, References, TransactionIntent, TransactionRecord } from '../types.js';
import { SqlEffectOutbox } from './effects.js';
import {
  leaseDueRows,
  readObservationRows,
  releaseLeaseRow,
  releaseLeaseRows,
} from './schedule.js';
import { SqlRecordWrites } from './sql-record-writes.js';
import { SqlStoreContext } from './sql-store-context.js';
import {
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

/** The store over SQL (SQLite and PostgreSQL), each call handed to the part that does it. */
export class SqlReferenceStore extends CheckedReferenceStore {
  readonly #store: SqlStoreContext;
  readonly #release: () => Promise<void>;
  readonly inbox: CallbackInbox;
  readonly #writes: SqlRecordWrites;
  protected readonly effects: SqlEffectOutbox;

  protected constructor(
    db: Kysely<StoreDatabase>,
    dialect: SqlDialectName,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
  ) {
    super();
    const store = new SqlStoreContext(db, dialect, options.now ?? (() => new Date()));
    this.#store = store;
    this.#release = release;
    this.inbox = new SqlCallbackInbox(() => store.open(), dialect, store.now);
    this.#writes = new SqlRecordWrites(store);
    this.effects = new SqlEffectOutbox(store);
  }

  protected now(): Date {
    return this.#store.now();
  }

  protected writeIntent(intent: TransactionIntent): Promise<TransactionRecord> {
    return this.#writes.createIntent(intent);
  }

  protected attach(reference: string, refs: References): Promise<TransactionRecord> {
    return this.#writes.attachReferences(reference, refs);
  }

  protected move(
    reference: string,
    transition: ParsedTransition,
    leaseToken: string | undefined,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    return this.#writes.transition(reference, transition, leaseToken);
  }

  protected writeAnswer(
    answer: ParsedAnswerWrite,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    return this.#writes.attachAndTransition(answer);
  }

  protected async lookup(
    field: ReferenceField,
    value: string,
  ): Promise<TransactionRecord | undefined> {
    const column = field === 'merchantReference' ? 'merchant_reference' : referenceColumns[field];
    const row = await this.#select().where(column, '=', value).executeTakeFirst();
    return row && toRecord(row);
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
    const { statuses, product, checkedBefore, limit } = filter;
    const rows = await this.#select()
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
      // The order of compareForReconciliation.
      .orderBy('last_checked_at', (ob) => ob.asc().nullsFirst())
      .orderBy('created_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  protected countCheck(reference: string, at: Date): Promise<TransactionRecord> {
    return this.#writes.recordCheck(reference, at);
  }

  protected lease(options: ParsedLeaseDue): Promise<LeasedRecord[]> {
    return leaseDueRows(this.#store.open(), this.#store.dialect, options, this.#store.now());
  }

  protected release(reference: string, options: ParsedRelease): Promise<boolean> {
    const { dialect } = this.#store;
    return releaseLeaseRow(this.#store.open(), dialect, reference, options, this.#store.now());
  }

  protected releaseAll(releases: ParsedLeaseRelease[]): Promise<boolean[]> {
    return releaseLeaseRows(this.#store.open(), this.#store.dialect, releases, this.#store.now());
  }

  protected observationsOf(reference: string): Promise<unknown[]> {
    return readObservationRows(this.#store.open(), reference);
  }

  protected writeResolution(
    reference: string,
    decision: ParsedResolve,
  ): Promise<TransactionRecord> {
    return this.#writes.resolve(reference, decision);
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
    return this.#store.open().selectFrom(transactionsTable).selectAll();
  }

  async close(): Promise<void> {
    if (this.#store.closed) return;
    this.#store.close();
    await this.#release();
  }
}
