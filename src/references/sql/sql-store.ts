import type { Kysely } from 'kysely';
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
import { SqlEffectOutbox } from './effects.js';
import {
  leaseDueRows,
  readObservationRows,
  releaseLeaseRow,
  releaseLeaseRows,
} from './schedule.js';
import { SqlRecordLookups } from './sql-record-lookups.js';
import { SqlRecordWrites } from './sql-record-writes.js';
import { SqlStoreContext } from './sql-store-context.js';
import type { SqlDialectName, StoreDatabase } from './table.js';

export interface SqlReferenceStoreOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/** The store over SQL (SQLite and PostgreSQL): input checked here, then handed to its parts. */
export class SqlReferenceStore implements ReferenceStore {
  readonly #store: SqlStoreContext;
  readonly #release: () => Promise<void>;
  readonly inbox: CallbackInbox;
  readonly #writes: SqlRecordWrites;
  readonly #lookups: SqlRecordLookups;
  readonly #effects: SqlEffectOutbox;

  protected constructor(
    db: Kysely<StoreDatabase>,
    dialect: SqlDialectName,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
  ) {
    const store = new SqlStoreContext(db, dialect, options.now ?? (() => new Date()));
    this.#store = store;
    this.#release = release;
    this.inbox = new SqlCallbackInbox(() => store.open(), dialect, store.now);
    this.#writes = new SqlRecordWrites(store);
    this.#lookups = new SqlRecordLookups(store);
    this.#effects = new SqlEffectOutbox(store);
  }

  async createIntent(intent: TransactionIntent): Promise<TransactionRecord> {
    return this.#writes.createIntent(parseIntent(intent));
  }

  async attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord> {
    const reference = parseMerchantReference('attachReferences', merchantReference);
    return this.#writes.attachReferences(reference, parseReferences(refs));
  }

  async transition(
    merchantReference: string,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const reference = parseMerchantReference('transition', merchantReference);
    const parsed = parseTransition(to, details);
    return this.#writes.transition(reference, parsed, details?.leaseToken);
  }

  async attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    return this.#writes.attachAndTransition(parseAnswerWrite(merchantReference, refs, to, details));
  }

  async recordCheck(merchantReference: string, at?: Date): Promise<TransactionRecord> {
    const reference = parseMerchantReference('recordCheck', merchantReference);
    return this.#writes.recordCheck(reference, parseCheckTime(at) ?? this.#store.now());
  }

  async get(merchantReference: string): Promise<TransactionRecord | undefined> {
    return this.find({ field: 'merchantReference', value: merchantReference });
  }

  async findByReference(reference: string): Promise<TransactionRecord | undefined> {
    if (!isLookupable(reference)) return undefined;
    const own = await this.get(reference);
    if (own) return own;
    return this.#lookups.findByPlatformReference(reference);
  }

  async find(by: { field: ReferenceField; value: string }): Promise<TransactionRecord | undefined> {
    const { field, value } = parseFindBy(by);
    if (!isLookupable(value)) return undefined;
    return this.#lookups.find(field, value);
  }

  async listOpen(options?: ListOpenOptions): Promise<TransactionRecord[]> {
    return this.#lookups.listOpen(parseListOpen(options));
  }

  async leaseDue(options: LeaseDueOptions): Promise<LeasedRecord[]> {
    const parsed = parseLeaseDue(options);
    return leaseDueRows(this.#store.open(), this.#store.dialect, parsed, this.#store.now());
  }

  async releaseLease(
    merchantReference: string,
    token: string,
    options: ReleaseLeaseOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('releaseLease', merchantReference);
    const parsed = parseRelease(token, options);
    const { dialect } = this.#store;
    return releaseLeaseRow(this.#store.open(), dialect, reference, parsed, this.#store.now());
  }

  async releaseLeases(releases: readonly LeaseRelease[]): Promise<boolean[]> {
    const parsed = parseReleases(releases);
    return releaseLeaseRows(this.#store.open(), this.#store.dialect, parsed, this.#store.now());
  }

  async readObservations(merchantReference: string): Promise<unknown[]> {
    const reference = parseMerchantReference('readObservations', merchantReference);
    return readObservationRows(this.#store.open(), reference);
  }

  async resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord> {
    const reference = parseMerchantReference('resolve', merchantReference);
    return this.#writes.resolve(reference, parseResolve(outcome, options));
  }

  async listReview(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]> {
    const { limit, after } = parseListPage('listReview', options);
    return this.#lookups.listReview(limit, after);
  }

  async claimEffects(options: ClaimEffectsOptions): Promise<EffectClaim[]> {
    return this.#effects.claim(parseClaimEffects(options));
  }

  async completeEffect(merchantReference: string, token: string): Promise<boolean> {
    const reference = parseMerchantReference('completeEffect', merchantReference);
    return this.#effects.complete(reference, token);
  }

  async failEffect(
    merchantReference: string,
    token: string,
    options: FailEffectOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('failEffect', merchantReference);
    return this.#effects.fail(reference, token, parseFailEffect(options));
  }

  async listEffects(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    options?: { limit?: number },
  ): Promise<TransactionRecord[]> {
    const listed = parseEffectStatus(status);
    const { limit } = parseListPage('listEffects', options);
    return this.#effects.list(listed, limit);
  }

  async close(): Promise<void> {
    if (this.#store.closed) return;
    this.#store.close();
    await this.#release();
  }
}
