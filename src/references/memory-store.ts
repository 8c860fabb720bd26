import { DuplicateReferenceError } from '../errors/duplicate-reference-error.js';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import type {
  ClaimEffectsOptions,
  EffectClaim,
  EffectStatus,
  FailEffectOptions,
} from './effects.js';
import { MemoryCallbackInbox } from './inbox/memory-inbox.js';
import type { CallbackInbox } from './inbox/types.js';
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
} from './input-rules.js';
import { MemoryEffects } from './memory-effects.js';
import { compareForReconciliation } from './reconciliation-order.js';
import {
  newReferences,
  noEffect,
  ownedElsewhere,
  platformReferenceFields,
  resolution,
  statusChange,
} from './record-changes.js';
import { copyRecord } from './record-copy.js';
import type { ResolveOptions } from './review.js';
import { parseLeaseDue, parseRelease, parseReleases } from './schedule/input-rules.js';
import { LeaseLostError } from './schedule/lease-lost-error.js';
import { MemorySchedule } from './schedule/memory-schedule.js';
import type {
  LeaseDueOptions,
  LeasedRecord,
  LeaseRelease,
  ReleaseLeaseOptions,
} from './schedule/types.js';
import type {
  ListOpenOptions,
  ReferenceField,
  ReferenceStore,
  References,
  TransactionIntent,
  TransactionRecord,
  TransactionStatus,
  TransitionDetails,
} from './types.js';

export interface MemoryReferenceStoreOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/**
 * The default store, lost when the process exits. Every method validates, decides and writes
 * without an await in between, so concurrent calls cannot interleave halfway through a change.
 */
export class MemoryReferenceStore implements ReferenceStore {
  readonly #records = new Map<string, TransactionRecord>();
  /** Platform reference value → merchant reference of the record that owns it. */
  readonly #owners = new Map<string, string>();
  readonly #now: () => Date;
  readonly inbox: CallbackInbox;
  readonly #schedule = new MemorySchedule();
  readonly #effects: MemoryEffects;

  constructor(options: MemoryReferenceStoreOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.inbox = new MemoryCallbackInbox(this.#now);
    this.#effects = new MemoryEffects(this.#records, this.#now);
  }

  async createIntent(intent: TransactionIntent): Promise<TransactionRecord> {
    const parsed = parseIntent(intent);
    if (this.#records.has(parsed.merchantReference)) {
      throw new DuplicateReferenceError(parsed.merchantReference);
    }
    const now = this.#now();
    const record: TransactionRecord = {
      merchantReference: parsed.merchantReference,
      product: parsed.product,
      flow: parsed.flow,
      amount: parsed.amount,
      msisdn: parsed.msisdn ?? null,
      status: 'initiating',
      statusReason: null,
      controlNumber: null,
      paymentReference: null,
      externalReference: null,
      txnid: null,
      refid: null,
      createdAt: now,
      updatedAt: now,
      attemptedAt: null,
      lastCheckedAt: null,
      checkCount: 0,
      lastPayload: null,
      metadata: { ...(parsed.metadata ?? {}) },
      review: null,
      resolution: null,
      effect: { ...noEffect },
    };
    this.#records.set(record.merchantReference, record);
    return copyRecord(record);
  }

  async attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord> {
    const reference = parseMerchantReference('attachReferences', merchantReference);
    const parsed = parseReferences(refs);
    const record = this.#require(reference);
    this.#attach(record, parsed);
    return copyRecord(record);
  }

  async transition(
    merchantReference: string,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const reference = parseMerchantReference('transition', merchantReference);
    const parsed = parseTransition(to, details);
    const record = this.#require(reference);
    return this.#move(record, parsed, details?.leaseToken);
  }

  async attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }> {
    const answer = parseAnswerWrite(merchantReference, refs, to, details);
    const record = this.#require(answer.merchantReference);
    this.#assertLease(answer.merchantReference, answer.leaseToken);
    this.#attach(record, answer.refs);
    return this.#move(record, answer.transition, undefined);
  }

  #attach(record: TransactionRecord, parsed: References): void {
    const reference = record.merchantReference;
    const fresh = newReferences(record, parsed);
    for (const field of platformReferenceFields) {
      const value = fresh[field];
      if (value === undefined) continue;
      const owner = this.#ownerOf(value);
      if (owner !== undefined && owner !== reference) {
        throw ownedElsewhere(reference, field, value, owner);
      }
    }
    let changed = false;
    for (const field of platformReferenceFields) {
      const value = fresh[field];
      if (value === undefined) continue;
      record[field] = value;
      this.#owners.set(value, reference);
      changed = true;
    }
    if (changed) record.updatedAt = this.#now();
  }

  #assertLease(reference: string, leaseToken: string | undefined): void {
    if (leaseToken !== undefined && !this.#schedule.holds(reference, leaseToken)) {
      throw new LeaseLostError(reference);
    }
  }

  #move(
    record: TransactionRecord,
    parsed: ParsedTransition,
    leaseToken: string | undefined,
  ): { record: TransactionRecord; changed: boolean } {
    const reference = record.merchantReference;
    this.#assertLease(reference, leaseToken);
    const change = statusChange(record, parsed, this.#now());
    if (change === undefined) return { record: copyRecord(record), changed: false };
    Object.assign(record, change);
    this.#effects.forget(reference);
    return { record: copyRecord(record), changed: true };
  }

  async get(merchantReference: string): Promise<TransactionRecord | undefined> {
    const record = this.#records.get(merchantReference);
    return record && copyRecord(record);
  }

  async findByReference(reference: string): Promise<TransactionRecord | undefined> {
    if (!isLookupable(reference)) return undefined;
    const record =
      this.#records.get(reference) ?? this.#records.get(this.#owners.get(reference) ?? '');
    return record && copyRecord(record);
  }

  async find(by: { field: ReferenceField; value: string }): Promise<TransactionRecord | undefined> {
    const { field, value } = parseFindBy(by);
    if (field === 'merchantReference') return this.get(value);
    const owner = this.#owners.get(value);
    const record = owner === undefined ? undefined : this.#records.get(owner);
    return record && record[field] === value ? copyRecord(record) : undefined;
  }

  async listOpen(options?: ListOpenOptions): Promise<TransactionRecord[]> {
    const { statuses, product, checkedBefore, limit } = parseListOpen(options);
    return [...this.#records.values()]
      .filter(
        (record) =>
          statuses.includes(record.status) &&
          (product === undefined || record.product === product) &&
          (checkedBefore === undefined ||
            record.lastCheckedAt === null ||
            record.lastCheckedAt < checkedBefore),
      )
      .sort(compareForReconciliation)
      .slice(0, limit)
      .map(copyRecord);
  }

  async recordCheck(merchantReference: string, at?: Date): Promise<TransactionRecord> {
    const reference = parseMerchantReference('recordCheck', merchantReference);
    const checkedAt = parseCheckTime(at) ?? this.#now();
    const record = this.#require(reference);
    record.lastCheckedAt = checkedAt;
    record.checkCount += 1;
    record.updatedAt = this.#now();
    return copyRecord(record);
  }

  async leaseDue(options: LeaseDueOptions): Promise<LeasedRecord[]> {
    const parsed = parseLeaseDue(options);
    return this.#schedule
      .lease(this.#records.values(), parsed, this.#now())
      .map((leased) => ({ ...leased, record: copyRecord(leased.record) }));
  }

  async releaseLease(
    merchantReference: string,
    token: string,
    options: ReleaseLeaseOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('releaseLease', merchantReference);
    const parsed = parseRelease(token, options);
    const record = this.#require(reference);
    return this.#schedule.release(record, parsed.token, parsed, this.#now());
  }

  async releaseLeases(releases: readonly LeaseRelease[]): Promise<boolean[]> {
    const parsed = parseReleases(releases);
    const records = parsed.map((release) => this.#require(release.merchantReference));
    const now = this.#now();
    return parsed.map((release, i) =>
      this.#schedule.release(records[i] as TransactionRecord, release.token, release, now),
    );
  }

  async readObservations(merchantReference: string): Promise<unknown[]> {
    const reference = parseMerchantReference('readObservations', merchantReference);
    this.#require(reference);
    return this.#schedule.observations(reference);
  }

  async resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord> {
    const reference = parseMerchantReference('resolve', merchantReference);
    const decision = parseResolve(outcome, options);
    const record = this.#require(reference);
    Object.assign(record, resolution(record, decision, this.#now()));
    this.#effects.forget(reference);
    return copyRecord(record);
  }

  async listReview(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]> {
    const { limit, after } = parseListPage('listReview', options);
    return [...this.#records.values()]
      .filter(
        (record) =>
          record.status === 'needs_review' &&
          (after === undefined || record.merchantReference > after),
      )
      .sort((a, b) => (a.merchantReference < b.merchantReference ? -1 : 1))
      .slice(0, limit)
      .map(copyRecord);
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

  async close(): Promise<void> {}

  #require(merchantReference: string): TransactionRecord {
    const record = this.#records.get(merchantReference);
    if (!record) throw new TransactionNotFoundError(merchantReference);
    return record;
  }

  #ownerOf(value: string): string | undefined {
    return this.#owners.get(value) ?? (this.#records.has(value) ? value : undefined);
  }
}
