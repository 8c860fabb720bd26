import type Database from 'better-sqlite3';
import { type Kysely, sql, type Transaction } from 'kysely';
import { DuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
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
  parseCheckTime,
  parseClaimEffects,
  parseFailEffect,
  parseIntent,
  parseListOpen,
  parseListPage,
  parseMerchantReference,
  parseReferences,
  parseResolve,
  parseTransition,
} from '../input-rules.js';
import {
  newReferences,
  ownedElsewhere,
  platformReferenceFields,
  resolution,
  type StatusChange,
  statusChange,
} from '../record-changes.js';
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
  PlatformReferenceField,
  ReferenceField,
  ReferenceStore,
  References,
  TransactionIntent,
  TransactionRecord,
  TransactionStatus,
  TransitionDetails,
} from '../types.js';
import { claimEffectRows, effectColumns, fencedEffectWrite } from './effects.js';
import type { InboxDatabase } from './inbox-table.js';
import {
  assertLeaseRow,
  leaseDueRows,
  readObservationRows,
  releaseLeaseRow,
  releaseLeaseRows,
} from './schedule.js';
import { SqliteScheduleWrites } from './schedule-sqlite.js';
import { SqliteMoneyWrites } from './sqlite-money-writes.js';
import {
  recordColumns,
  referenceColumns,
  type SqlDialectName,
  type StoreDatabase,
  type TransactionRow,
  toCents,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';
import { uniqueViolationColumn } from './unique-violation.js';

type Db = Kysely<StoreDatabase> | Transaction<StoreDatabase>;

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

  protected constructor(
    db: Kysely<StoreDatabase>,
    dialect: SqlDialectName,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
    /** SQLite: the better-sqlite3 handle under `db`, for the inbox's group commit. */
    sqlite?: Database.Database,
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
    );
    this.inbox = this.#inbox;
    this.#moneyWrites = sqlite && dialect === 'sqlite' ? new SqliteMoneyWrites(sqlite) : undefined;
    this.#scheduleWrites =
      sqlite && dialect === 'sqlite' ? new SqliteScheduleWrites(sqlite) : undefined;
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
      throw await this.#explainConflict(error, reference, parsed);
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
        const record = await this.#lock(trx, reference);
        return this.#move(trx, record, parsed, details?.leaseToken);
      });
  }

  async attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const reference = parseMerchantReference('attachAndTransition', merchantReference);
    const parsedRefs = parseReferences(refs);
    const parsed = parseTransition(to, details);
    // One transaction and one UPDATE: one commit (one fsync on SQLite) where the two calls made
    // two, and one row write where they made two. A move the status table refuses (the record
    // settled meanwhile) is decided in code, with no failed statement, so the references are
    // still written and the refusal thrown after the commit: what the two calls in turn would
    // do. A lost lease writes nothing, as its error says. On SQLite, without a lease, the same
    // rules run as hand-written statements in one synchronous transaction (sqlite-money-writes).
    let refused: unknown;
    let result: { record: TransactionRecord; changed: boolean };
    try {
      const written =
        details?.leaseToken === undefined && this.#open()
          ? this.#moneyWrites?.attachAndTransition({
              merchantReference: reference,
              refs: parsedRefs,
              transition: parsed,
              now: this.#now(),
            })
          : undefined;
      refused = written?.refused;
      result = written
        ? { record: written.record, changed: written.changed }
        : await this.#open()
            .transaction()
            .execute(async (trx) => {
              const record = await this.#lock(trx, reference);
              if (details?.leaseToken !== undefined) {
                await assertLeaseRow(trx, reference, details.leaseToken);
              }
              const claimed = await this.#claim(trx, record, parsedRefs);
              const now = this.#now();
              let change: StatusChange | undefined;
              try {
                change = statusChange(record, parsed, now);
              } catch (error) {
                if (!isInvalidTransitionError(error)) throw error;
                refused = error;
              }
              if (claimed === undefined && change === undefined) return { record, changed: false };
              const row = await trx
                .updateTable(transactionsTable)
                .set({
                  ...(claimed ?? {}),
                  updated_at: this.#instant(now),
                  ...(change === undefined ? {} : this.#statusColumns(change, parsed)),
                })
                .where('merchant_reference', '=', reference)
                .returningAll()
                .executeTakeFirstOrThrow();
              return { record: toRecord(row), changed: change !== undefined };
            });
    } catch (error) {
      throw await this.#explainConflict(error, reference, parsedRefs);
    }
    if (refused !== undefined) throw refused;
    return result;
  }

  /** attachReferences inside `trx`: the record with `refs` attached. */
  async #attach(trx: Db, reference: string, parsed: References): Promise<TransactionRecord> {
    const record = await this.#lock(trx, reference);
    const columns = await this.#claim(trx, record, parsed);
    if (columns === undefined) return record;
    const row = await trx
      .updateTable(transactionsTable)
      .set({ ...columns, updated_at: this.#instant(this.#now()) })
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /**
   * The reference columns to set on `record` for `parsed` (undefined: nothing new), after
   * checking that no other record owns any of the new values; a conflict throws and writes
   * nothing.
   */
  async #claim(
    trx: Db,
    record: TransactionRecord,
    parsed: References,
  ): Promise<Partial<Record<string, string>> | undefined> {
    const reference = record.merchantReference;
    const fresh = newReferences(record, parsed);
    const entries = platformReferenceFields.flatMap((field) => {
      const value = fresh[field];
      return value === undefined ? [] : [{ field, value }];
    });
    if (entries.length === 0) return undefined;
    const values = entries.map((entry) => entry.value);
    await this.#lockValues(trx, values);
    // One query for all the new values; only when one is owned elsewhere are they asked one by
    // one, in order, to name the first conflict.
    if ((await this.#ownerOf(trx, values, reference)) !== undefined) {
      for (const { field, value } of entries) {
        const owner = await this.#ownerOf(trx, [value], reference);
        if (owner !== undefined) throw ownedElsewhere(reference, field, value, owner);
      }
    }
    const columns: Partial<Record<string, string>> = {};
    for (const { field, value } of entries) columns[referenceColumns[field]] = value;
    return columns;
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
      .set({ updated_at: this.#instant(change.updatedAt), ...this.#statusColumns(change, parsed) })
      .where('merchant_reference', '=', reference)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { record: toRecord(row), changed: true };
  }

  /** The columns a status change writes (all but `updated_at`). */
  #statusColumns(change: StatusChange, parsed: ParsedTransition) {
    return {
      status: change.status,
      status_reason: change.statusReason,
      attempted_at: change.attemptedAt && this.#instant(change.attemptedAt),
      last_payload: parsed.hasPayload ? parsed.payloadText : sql.ref<string | null>('last_payload'),
      review: change.review === null ? null : JSON.stringify(change.review),
      ...effectColumns(this.#dialect, change.effect),
    };
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
    const column =
      by.field === 'merchantReference' ? 'merchant_reference' : referenceColumns[by.field];
    if (column === undefined || !isLookupable(by.value)) return undefined;
    const row = await this.#open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where(column, '=', by.value)
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
        const record = await this.#lock(trx, reference);
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
    const { limit } = parseListPage('listEffects', options);
    const rows = await this.#open()
      .selectFrom(transactionsTable)
      .selectAll()
      .where('effect_status', '=', status)
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

  /** Reads the record inside `trx`, locking its row on PostgreSQL until the transaction ends. */
  async #lock(trx: Db, merchantReference: string): Promise<TransactionRecord> {
    const row = (await trx
      .selectFrom(transactionsTable)
      .select(recordColumns)
      .where('merchant_reference', '=', merchantReference)
      .$if(this.#dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst()) as TransactionRow | undefined;
    if (!row) throw new TransactionNotFoundError(merchantReference);
    return toRecord(row);
  }

  /**
   * Serialises claims of the same reference value across records and kinds. The per-column
   * unique constraints cannot see a controlNumber equal to another record's txnid; a
   * transaction-scoped advisory lock per value (taken in a fixed order, so two claimers never
   * deadlock) makes the ownership check below exact on PostgreSQL. SQLite has one writer.
   */
  async #lockValues(trx: Db, values: string[]): Promise<void> {
    if (this.#dialect !== 'postgres') return;
    for (const value of [...new Set(values)].sort()) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${value}, 0))`.execute(trx);
    }
  }

  /** A record other than `self` holding one of `values` under any reference kind, if any. */
  async #ownerOf(db: Db, values: readonly string[], self: string): Promise<string | undefined> {
    const row = await db
      .selectFrom(transactionsTable)
      .select('merchant_reference')
      .where('merchant_reference', '<>', self)
      .where((eb) =>
        eb.or([
          eb('merchant_reference', 'in', values),
          ...Object.values(referenceColumns).map((column) => eb(column, 'in', values)),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return row?.merchant_reference;
  }

  /**
   * A unique violation that slipped past the ownership check (another process won the race)
   * becomes the same ReferenceConflictError the check would have raised.
   */
  async #explainConflict(error: unknown, self: string, refs: References): Promise<unknown> {
    const column = uniqueViolationColumn(error);
    if (column === undefined || column === 'merchant_reference') return error;
    const field = (Object.keys(referenceColumns) as PlatformReferenceField[]).find(
      (candidate) => referenceColumns[candidate] === column,
    );
    const value = field && refs[field];
    if (field === undefined || value === undefined) return error;
    const owner = (await this.#ownerOf(this.#db, [value], self)) ?? 'another transaction';
    const conflict = ownedElsewhere(self, field, value, owner);
    (conflict as { cause?: unknown }).cause = error;
    return conflict;
  }
}
