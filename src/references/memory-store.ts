import { DuplicateReferenceError } from '../errors/duplicate-reference-error.js';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { CheckedReferenceStore, type ParsedListOpen } from './checked-store.js';
import { MemoryCallbackInbox } from './inbox/memory-inbox.js';
import type { CallbackInbox } from './inbox/types.js';
import type { ParsedIntent, ParsedMove } from './input-rules.js';
import { MemoryEffects } from './memory-effects.js';
import { type FinalTallies, type ReportWindow, talliesOfRows } from './operations-report.js';
import { bucketClock } from './rate-limit/bucket-clock.js';
import { checkedRateLimit } from './rate-limit/checked-rate-limit.js';
import { MemoryRateLimit } from './rate-limit/memory-rate-limit.js';
import type { SharedRateLimit } from './rate-limit/types.js';
import { byCreation, compareForReconciliation } from './reconciliation-order.js';
import type { ReferenceField, References, TransactionRecord } from './record.js';
import {
  applyChange,
  newReferences,
  noEffect,
  ownedElsewhere,
  platformReferenceFields,
} from './record-changes.js';
import { copyRecord } from './record-copy.js';
import type { ParsedLeaseDue, ParsedRelease } from './schedule/input-rules.js';
import { LeaseLostError } from './schedule/lease-lost-error.js';
import { MemorySchedule } from './schedule/memory-schedule.js';
import type { LeasedRecord } from './schedule/types.js';
import { providerOf, summarizeRecords } from './summary.js';
import type { MoveCommit, StoreSummary } from './types.js';
import { floatShort, reservationEnd, type WalletFloatState } from './wallet-float.js';

export interface MemoryReferenceStoreOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/**
 * The default store, lost when the process exits. Every method validates, decides and writes
 * without an await in between, so concurrent calls cannot interleave halfway through a change.
 */
export class MemoryReferenceStore extends CheckedReferenceStore {
  readonly #records = new Map<string, TransactionRecord>();
  /** Platform reference value → merchant reference of the record that owns it. */
  readonly #owners = new Map<string, string>();
  readonly #clock: () => Date;
  readonly inbox: CallbackInbox;
  readonly rateLimit: SharedRateLimit;
  readonly #schedule = new MemorySchedule();
  /** Float per account, as `pesakit_wallets` keeps it: free = `cents - (held - settled)`. */
  readonly #wallets = new Map<string, { cents: number; held: number; settled: number }>();
  /** Merchant reference → the hold of a payout not yet final. */
  readonly #reservations = new Map<string, { account: string; cents: number }>();
  protected readonly effects: MemoryEffects;
  constructor(options: MemoryReferenceStoreOptions = {}) {
    super();
    this.#clock = options.now ?? (() => new Date());
    this.inbox = new MemoryCallbackInbox(this.#clock);
    this.rateLimit = checkedRateLimit(new MemoryRateLimit(options.now ?? bucketClock));
    this.effects = new MemoryEffects(this.#records, this.#clock);
  }
  protected now(): Date {
    return this.#clock();
  }
  protected walletSettled(account: string): number {
    let open = 0;
    for (const hold of this.#reservations.values()) {
      if (hold.account === account) open += hold.cents;
    }
    return (this.#wallets.get(account)?.held ?? 0) - open;
  }
  protected writeWalletBalance(account: string, cents: number, settled: number): WalletFloatState {
    const held = this.#wallets.get(account)?.held ?? 0;
    this.#wallets.set(account, { cents, held, settled });
    return { balance: cents / 100, reserved: (held - settled) / 100 };
  }
  protected async writeIntent(parsed: ParsedIntent): Promise<TransactionRecord> {
    if (this.#records.has(parsed.merchantReference)) {
      throw new DuplicateReferenceError(parsed.merchantReference);
    }
    const { reservation } = parsed;
    if (reservation !== undefined) {
      const wallet = this.#wallets.get(reservation.account);
      const [balance, reserved] = [wallet?.cents ?? 0, wallet ? wallet.held - wallet.settled : 0];
      if (wallet === undefined || balance - reserved < reservation.cents) {
        throw floatShort(balance, reserved, reservation.cents);
      }
      wallet.held += reservation.cents;
      this.#reservations.set(parsed.merchantReference, reservation);
    }
    const now = this.now();
    const record: TransactionRecord = {
      merchantReference: parsed.merchantReference,
      product: parsed.product,
      flow: parsed.flow,
      amount: parsed.amount,
      msisdn: parsed.msisdn ?? null,
      provider: providerOf(parsed.msisdn),
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
      finalAt: null,
      lastCheckedAt: null,
      checkCount: 0,
      lastPayload: null,
      metadata: { ...(parsed.metadata ?? {}) },
      account: parsed.account ? { ...parsed.account } : null,
      review: null,
      resolution: null,
      effect: { ...noEffect },
    };
    this.#records.set(record.merchantReference, record);
    return copyRecord(record);
  }
  protected async commitMove(reference: string, move: ParsedMove): Promise<MoveCommit> {
    const record = this.#require(reference);
    this.#assertLease(reference, move.leaseToken);
    if (record.status !== move.expected) return { record: copyRecord(record), applied: false };
    this.#attach(record, move.references);
    if (move.change !== undefined) {
      Object.assign(record, applyChange(record, move.change, this.now()));
      this.effects.forget(reference);
      this.#endReservation(record);
    }
    return { record: copyRecord(record), applied: true };
  }
  #attach(record: TransactionRecord, parsed: References): void {
    const reference = record.merchantReference;
    const fresh = newReferences(record, parsed);
    for (const field of platformReferenceFields) {
      const value = fresh[field];
      if (value === undefined) continue;
      const owner = this.#owners.get(value) ?? (this.#records.has(value) ? value : undefined);
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
    if (changed) record.updatedAt = this.now();
  }
  #assertLease(reference: string, leaseToken: string | undefined): void {
    if (leaseToken !== undefined && !this.#schedule.holds(reference, leaseToken)) {
      throw new LeaseLostError(reference);
    }
  }
  /** A failure gives the float back; a success's debit keeps its place (see `walletSettled`). */
  #endReservation(record: TransactionRecord): void {
    const held = this.#reservations.get(record.merchantReference);
    const end = reservationEnd(record.status);
    if (held === undefined || end === undefined) return;
    this.#reservations.delete(record.merchantReference);
    const wallet = this.#wallets.get(held.account);
    if (wallet !== undefined && end === 'release') wallet.held -= held.cents;
  }
  protected lookup(field: ReferenceField, value: string): TransactionRecord | undefined {
    const owner = field === 'merchantReference' ? value : this.#owners.get(value);
    const record = owner === undefined ? undefined : this.#records.get(owner);
    return record && record[field] === value ? copyRecord(record) : undefined;
  }
  protected lookupMany(references: string[]): Map<string, TransactionRecord> {
    const found = new Map<string, TransactionRecord>();
    for (const reference of references) {
      const record = this.#records.get(reference);
      if (record) found.set(reference, copyRecord(record));
    }
    return found;
  }
  protected lookupAny(value: string): TransactionRecord | undefined {
    const record = this.#records.get(value) ?? this.#records.get(this.#owners.get(value) ?? '');
    return record && copyRecord(record);
  }
  protected listOpenRecords(filter: ParsedListOpen): TransactionRecord[] {
    const { statuses, product, checkedBefore, limit, oldestFirst, after } = filter;
    return [...this.#records.values()]
      .filter(
        (record) =>
          statuses.includes(record.status) &&
          (after === undefined || byCreation(record, after) > 0) &&
          (product === undefined || record.product === product) &&
          (checkedBefore === undefined ||
            record.lastCheckedAt === null ||
            record.lastCheckedAt < checkedBefore),
      )
      .sort(oldestFirst ? byCreation : compareForReconciliation)
      .slice(0, limit)
      .map(copyRecord);
  }
  protected countCheck(reference: string, at: Date): TransactionRecord {
    const record = this.#require(reference);
    record.lastCheckedAt = at;
    record.checkCount += 1;
    record.updatedAt = this.now();
    return copyRecord(record);
  }
  protected lease(options: ParsedLeaseDue): LeasedRecord[] {
    return this.#schedule
      .lease(this.#records.values(), options, this.now())
      .map((leased) => ({ ...leased, record: copyRecord(leased.record) }));
  }
  protected release(reference: string, options: ParsedRelease): boolean {
    return this.#schedule.release(this.#require(reference), options.token, options, this.now());
  }
  protected observationsOf(reference: string): unknown[] {
    this.#require(reference);
    return this.#schedule.observations(reference);
  }
  protected summaryOf(): StoreSummary {
    return summarizeRecords(this.#records.values());
  }
  protected finalTallies(window: ReportWindow): FinalTallies {
    const from = Math.min(window.chartFrom, window.dayAgo);
    const rows = [...this.#records.values()].flatMap(({ status, provider, createdAt, finalAt }) =>
      finalAt && finalAt.getTime() >= from ? [{ status, provider, createdAt, finalAt }] : [],
    );
    return talliesOfRows(rows, window);
  }
  protected reviewPage(limit: number, after: string | undefined): TransactionRecord[] {
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
  async close(): Promise<void> {}
  #require(merchantReference: string): TransactionRecord {
    const record = this.#records.get(merchantReference);
    if (!record) throw new TransactionNotFoundError(merchantReference);
    return record;
  }
}
