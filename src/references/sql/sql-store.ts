import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { PesakitError } from '../../errors/pesakit-error.js';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type {
  ClaimEffectsOptions,
  EffectClaim,
  EffectStatus,
  FailEffectOptions,
} from '../effects.js';
import { SqlCallbackInbox } from '../inbox/sql-inbox.js';
import type { CallbackInbox } from '../inbox/types.js';
import {
  isLookupable,
  type ParsedTransition,
  parseAnswerWrite,
  parseCheckTime,
  parseClaimEffects,
  parseEffectStatus,
  parseFailEffect,
  parseFindBy,
  parseIntent,
  parseListOpen,
  parseListPage,
  parseMerchantReference,
  parseReferences,
  parseResolve,
  parseTransition,
} from '../input-rules.js';
import { resolution, statusChange } from '../record-changes.js';
import type { ResolveOptions } from '../review.js';
import { parseLeaseDue, parseRelease, parseReleases } from '../schedule/input-rules.js';
import type {
  LeaseDueOptions,
  LeasedRecord,
  LeaseRelease,
  ReleaseLeaseOptions,
} from '../schedule/types.js';
import type {
  ListOpenOptions,
  ReferenceField,
  ReferenceStore,
  References,
  TransactionIntent,
  TransactionRecord,
  TransactionStatus,
  TransitionDetails,
} from '../types.js';
import { writeAnswer } from './answer-write.js';
import { claimEffectRows, effectColumns, fencedEffectWrite } from './effects.js';
import type { InboxDatabase } from './inbox-table.js';
import {
  claimReferences,
  type Db,
  explainConflict,
  lockRecord,
  statusColumns,
} from './record-claims.js';
import {
  assertLeaseRow,
  leaseDueRows,
  readObservationRows,
  releaseLeaseRow,
  releaseLeaseRows,
} from './schedule.js';
import { SqliteScheduleWrites } from './schedule-sqlite.js';
import { SqliteMoneyWrites } from './sqlite-money-writes.js';
import { type SqliteScheduleThread, viaScheduleThread } from './sqlite-schedule-worker.js';
import {
  referenceColumns,
  type SqlDialectName,
  type StoreDatabase,
  toCents,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';

/** Options shared by the SQL stores. */
export interface SqlReferenceStoreOptions {
  /** The clock used for `createdAt`, `updatedAt` and defaults. @default () => new Date() */
  now?: () => Date;
}

/**
 * The reference store over SQL, one implementation for SQLite and PostgreSQL. Every change is
 * one transaction that locks the record (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite has one
 * writer at a time), decides with the same rules as the memory store, then writes. The unique
 * constraints are the last word on who owns a reference.
 */
export class SqlReferenceStore implements ReferenceStore {
  readonly #db: Kysely<StoreDatabase>;
  readonly #dialect: SqlDialectName;
  readonly #now: () => Date;
  readonly #release: () => Promise<void>;
  #closed = false;
  readonly inbox: CallbackInbox;
  readonly #inbox: SqlCallbackInbox;
  /** SQLite: the money call's two writes without Kysely (sqlite-money-writes.ts). */
  readonly #moneyWrites: SqliteMoneyWrites | undefined;
  /** SQLite: the reconciler's lease and batched release without Kysely (schedule-sqlite.ts). */
  readonly #scheduleWrites: SqliteScheduleWrites | undefined;
  /** SQLite file opened by path: the same lease and release on a thread of their own. */
  readonly #scheduleThread: SqliteScheduleThread | undefined;

  protected constructor(
    db: Kysely<StoreDatabase>,
    dialect: SqlDialectName,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
    /** SQLite: the better-sqlite3 handle under `db`, for the inbox's group commit. */
    sqlite?: Database.Database,
    /** SQLite: the inbox's gathering window, checked by SqliteReferenceStore.open. */
    inboxGatherMs?: number,
    /** SQLite: the schedule thread (sqlite-schedule-worker.ts); SqliteReferenceStore ends it. */
    scheduleThread?: SqliteScheduleThread,
  ) {
    this.#db = db;
    this.#dialect = dialect;
    this.#release = release;
    this.#now = options.now ?? (() => new Date());
    this.#inbox = new SqlCallbackInbox(
      () => this.#open() as unknown as Kysely<InboxDatabase>,
      dialect,
      this.#now,
      sqlite,
      inboxGatherMs,
    );
    this.inbox = this.#inbox;
    this.#moneyWrites = sqlite && dialect === 'sqlite' ? new SqliteMoneyWrites(sqlite) : undefined;
    this.#scheduleWrites =
      sqlite && dialect === 'sqlite' ? new SqliteScheduleWrites(sqlite) : undefined;
    this.#scheduleThread = scheduleThread;
  }

  async createIntent(intent: TransactionIntent): Promise<TransactionRecord> {
    const parsed = parseIntent(intent);
    const at = this.#now();
    const now = this.#instant(at);
    try {
      const written = this.#open() && this.#moneyWrites?.createIntent(parsed, at);
      if (written !== undefined) return written;
      const row = await this.#open()
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

  async attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord> {
    const reference = parseMerchantReference('attachReferences', merchantReference);
    const parsed = parseReferences(refs);
    try {
      return await this.#open()
        .transaction()
        .execute((trx) => this.#attach(trx, reference, parsed));
    } catch (error) {
      throw await explainConflict(this.#db, error, reference, parsed);
    }
  }

  async transition(
    merchantReference: string,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const reference = parseMerchantReference('transition', merchantReference);
    const parsed = parseTransition(to, details);
    return this.#open()
      .transaction()
      .execute(async (trx) => {
        const record = await lockRecord(trx, this.#dialect, reference);
        return this.#move(trx, record, parsed, details?.leaseToken);
      });
  }

  async attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const answer = parseAnswerWrite(merchantReference, refs, to, details);
    return writeAnswer(
      { db: this.#open(), dialect: this.#dialect, now: this.#now, moneyWrites: this.#moneyWrites },
      answer,
    );
  }

  /** attachReferences inside `trx`: the record with `refs` attached. */
  async #attach(trx: Db, reference: string, parsed: References): Promise<TransactionRecord> {
    const record = await lockRecord(trx, this.#dialect, reference);
    const columns = await claimReferences(trx, this.#dialect, record, parsed);
    if (columns === undefined) return record;
    const row = await trx
      .updateTable(transactionsTable)
      .set({ ...columns, updated_at: this.#instant(this.#now()) })
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /** transition inside `trx`, of `record` as locked and read there. */
  async #move(
    trx: Db,
    record: TransactionRecord,
    parsed: ParsedTransition,
    leaseToken: string | undefined,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const reference = record.merchantReference;
    if (leaseToken !== undefined) await assertLeaseRow(trx, reference, leaseToken);
    const change = statusChange(record, parsed, this.#now());
    if (change === undefined) return { record, changed: false };
    const row = await trx
      .updateTable(transactionsTable)
      .set({
        updated_at: this.#instant(change.updatedAt),
        ...statusColumns(this.#dialect, change, parsed),
      })
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { record: toRecord(row), changed: true };
  }

  async get(merchantReference: string): Promise<TransactionRecord | undefined> {
    return this.find({ field: 'merchantReference', value: merchantReference });
  }

  async findByReference(reference: string): Promise<TransactionRecord | undefined> {
    if (!isLookupable(reference)) return undefined;
    const own = await this.get(reference);
    if (own) return own;
    const row = await this.#open()
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

  async find(by: { field: ReferenceField; value: string }): Promise<TransactionRecord | undefined> {
    const { field, value } = parseFindBy(by);
    const column = field === 'merchantReference' ? 'merchant_reference' : referenceColumns[field];
    if (!isLookupable(value)) return undefined;
    const row = await this.#open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async listOpen(options?: ListOpenOptions): Promise<TransactionRecord[]> {
    const { statuses, product, checkedBefore, limit } = parseListOpen(options);
    const rows = await this.#open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('status', 'in', [...statuses])
      .$if(product !== undefined, (qb) => qb.where('product', '=', product as string))
      .$if(checkedBefore !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('last_checked_at', 'is', null),
            eb('last_checked_at', '<', this.#instant(checkedBefore as Date)),
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

  async recordCheck(merchantReference: string, at?: Date): Promise<TransactionRecord> {
    const reference = parseMerchantReference('recordCheck', merchantReference);
    const checkedAt = parseCheckTime(at) ?? this.#now();
    // One statement: the count is incremented by the engine, so concurrent checks all count.
    const row = await this.#open()
      .updateTable(transactionsTable)
      .set((eb) => ({
        last_checked_at: this.#instant(checkedAt),
        check_count: eb('check_count', '+', 1),
        updated_at: this.#instant(this.#now()),
      }))
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new TransactionNotFoundError(reference);
    return toRecord(row);
  }

  async leaseDue(options: LeaseDueOptions): Promise<LeasedRecord[]> {
    const parsed = parseLeaseDue(options);
    const now = this.#now();
    this.#open();
    const threaded = await viaScheduleThread(this.#scheduleThread, (t) => t.leaseDue(parsed, now));
    if (threaded !== undefined) return threaded;
    const leased = this.#open() && this.#scheduleWrites?.leaseDue(parsed, now);
    if (leased !== undefined) return leased;
    return leaseDueRows(this.#open(), this.#dialect, parsed, now);
  }

  async releaseLease(
    merchantReference: string,
    token: string,
    options: ReleaseLeaseOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('releaseLease', merchantReference);
    const parsed = parseRelease(token, options);
    return releaseLeaseRow(this.#open(), this.#dialect, reference, parsed, this.#now());
  }

  async releaseLeases(releases: readonly LeaseRelease[]): Promise<boolean[]> {
    const parsed = parseReleases(releases);
    const now = this.#now();
    this.#open();
    const threaded = await viaScheduleThread(this.#scheduleThread, (t) =>
      t.releaseLeases(parsed, now),
    );
    if (threaded !== undefined) return threaded;
    const written = this.#open() && this.#scheduleWrites?.releaseLeases(parsed, now);
    if (written !== undefined) return written;
    return releaseLeaseRows(this.#open(), this.#dialect, parsed, now);
  }

  async readObservations(merchantReference: string): Promise<unknown[]> {
    const reference = parseMerchantReference('readObservations', merchantReference);
    return readObservationRows(this.#open(), reference);
  }

  async resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord> {
    const reference = parseMerchantReference('resolve', merchantReference);
    const decision = parseResolve(outcome, options);
    return this.#open()
      .transaction()
      .execute(async (trx) => {
        const record = await lockRecord(trx, this.#dialect, reference);
        const change = resolution(record, decision, this.#now());
        const row = await trx
          .updateTable(transactionsTable)
          .set({
            status: change.status,
            status_reason: change.statusReason,
            updated_at: this.#instant(change.updatedAt),
            resolution: JSON.stringify(change.resolution),
            ...effectColumns(this.#dialect, change.effect),
          })
          .where('merchant_reference', '=', reference)
          .returningAll()
          .executeTakeFirstOrThrow();
        return toRecord(row);
      });
  }

  async listReview(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]> {
    const { limit, after } = parseListPage('listReview', options);
    const rows = await this.#open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('status', '=', 'needs_review')
      .$if(after !== undefined, (qb) => qb.where('merchant_reference', '>', after as string))
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async claimEffects(options: ClaimEffectsOptions): Promise<EffectClaim[]> {
    return claimEffectRows(this.#open(), this.#dialect, parseClaimEffects(options), this.#now());
  }

  async completeEffect(merchantReference: string, token: string): Promise<boolean> {
    const reference = parseMerchantReference('completeEffect', merchantReference);
    const now = this.#now();
    return fencedEffectWrite(this.#open(), this.#dialect, reference, token, now, {
      effect_status: 'done',
      effect_due_at: null,
      effect_last_error: null,
      effect_completed_at: this.#instant(now),
    });
  }

  async failEffect(
    merchantReference: string,
    token: string,
    options: FailEffectOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('failEffect', merchantReference);
    const { error, retryAt } = parseFailEffect(options);
    return fencedEffectWrite(this.#open(), this.#dialect, reference, token, this.#now(), {
      effect_status: retryAt === null ? 'dead' : 'due',
      effect_due_at: retryAt && this.#instant(retryAt),
      effect_last_error: error,
    });
  }

  async listEffects(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    options?: { limit?: number },
  ): Promise<TransactionRecord[]> {
    const listed = parseEffectStatus(status);
    const { limit } = parseListPage('listEffects', options);
    const rows = await this.#open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('effect_status', '=', listed)
      .orderBy('effect_due_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // The inbox's appends in flight are answered, and its SQLite writer thread stopped, first.
    await this.#inbox.close();
    await this.#release();
  }

  #open(): Kysely<StoreDatabase> {
    if (this.#closed) {
      throw new PesakitError('This reference store is closed; open a new one to keep using it.');
    }
    return this.#db;
  }

  #instant(value: Date): Date | string {
    return toInstant(this.#dialect, value);
  }
}
