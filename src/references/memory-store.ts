import { DuplicateReferenceError } from '../errors/duplicate-reference-error.js';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import {
  checkedEffects,
  checkedRecords,
  checkedReports,
  checkedSchedule,
  checkedWallets,
  type ParsedListOpen,
  type RecordsPart,
} from './checked-parts.js';
import type { EffectOutbox } from './effects.js';
import { MemoryCallbackInbox } from './inbox/memory-inbox.js';
import type { CallbackInbox } from './inbox/types.js';
import type { ParsedIntent, ParsedMove } from './input-rules.js';
import { listedReports } from './listed-reports.js';
import { MemoryEffects } from './memory-effects.js';
import { MemoryWallets } from './memory-wallets.js';
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
import { LeaseLostError } from './schedule/lease-lost-error.js';
import { MemorySchedule } from './schedule/memory-schedule.js';
import type { SchedulingStore } from './schedule/types.js';
import { providerOf } from './summary.js';
import type { MoveCommit, ReferenceStore, StoreReports, TransactionRecords } from './types.js';
import type { WalletFloat } from './wallet-float.js';

export interface MemoryReferenceStoreOptions {
  /** @default () => new Date() */
  now?: () => Date;
}

/**
 * The default store, lost when the process exits. Every method validates, decides and writes
 * without an await in between, so concurrent calls cannot interleave halfway through a change.
 * Its reports are the ones any store gets from `records.list`.
 */
export class MemoryReferenceStore implements ReferenceStore {
  readonly records: TransactionRecords;
  readonly schedule: SchedulingStore;
  readonly effects: EffectOutbox;
  readonly inbox: CallbackInbox;
  readonly wallets: WalletFloat;
  readonly rateLimit: SharedRateLimit;
  readonly reports: StoreReports;
  constructor(options: MemoryReferenceStoreOptions = {}) {
    const now = options.now ?? (() => new Date());
    const rows = new Map<string, TransactionRecord>();
    const schedule = new MemorySchedule(rows, now);
    const effects = new MemoryEffects(rows, now);
    const wallets = new MemoryWallets();
    this.records = checkedRecords(new MemoryRecords(rows, now, { schedule, effects, wallets }));
    this.schedule = checkedSchedule(schedule);
    this.effects = checkedEffects(effects);
    this.inbox = new MemoryCallbackInbox(now);
    this.wallets = checkedWallets(wallets);
    this.rateLimit = checkedRateLimit(new MemoryRateLimit(options.now ?? bucketClock));
    this.reports = checkedReports(listedReports(this.records), now);
  }
  async close(): Promise<void> {}
}

/** What a move touches beside the record: the fence, the effect it replaces, the float it ends. */
interface MoveSides {
  schedule: MemorySchedule;
  effects: MemoryEffects;
  wallets: MemoryWallets;
}

class MemoryRecords implements RecordsPart {
  readonly #rows: Map<string, TransactionRecord>;
  /** Platform reference value → merchant reference of the record that owns it. */
  readonly #owners = new Map<string, string>();
  readonly #now: () => Date;
  readonly #sides: MoveSides;
  constructor(rows: Map<string, TransactionRecord>, now: () => Date, sides: MoveSides) {
    this.#rows = rows;
    this.#now = now;
    this.#sides = sides;
  }
  async create(parsed: ParsedIntent): Promise<TransactionRecord> {
    if (this.#rows.has(parsed.merchantReference)) {
      throw new DuplicateReferenceError(parsed.merchantReference);
    }
    if (parsed.reservation !== undefined) {
      this.#sides.wallets.reserve(parsed.merchantReference, parsed.reservation);
    }
    const now = this.#now();
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
    this.#rows.set(record.merchantReference, record);
    return copyRecord(record);
  }
  async move(reference: string, move: ParsedMove): Promise<MoveCommit> {
    const record = this.#rows.get(reference);
    if (!record) throw new TransactionNotFoundError(reference);
    const { leaseToken } = move;
    if (leaseToken !== undefined && !this.#sides.schedule.holds(reference, leaseToken)) {
      throw new LeaseLostError(reference);
    }
    if (record.status !== move.expected) return { record: copyRecord(record), applied: false };
    this.#attach(record, move.references);
    if (move.change !== undefined) {
      Object.assign(record, applyChange(record, move.change, this.#now()));
      this.#sides.effects.forget(reference);
      this.#sides.wallets.end(record);
    }
    return { record: copyRecord(record), applied: true };
  }
  #attach(record: TransactionRecord, parsed: References): void {
    const reference = record.merchantReference;
    const fresh = newReferences(record, parsed);
    for (const field of platformReferenceFields) {
      const value = fresh[field];
      if (value === undefined) continue;
      const owner = this.#owners.get(value) ?? (this.#rows.has(value) ? value : undefined);
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
  find({ field, value }: { field?: ReferenceField; value: string }): TransactionRecord | undefined {
    if (field === undefined) {
      const record = this.#rows.get(value) ?? this.#rows.get(this.#owners.get(value) ?? '');
      return record && copyRecord(record);
    }
    const owner = field === 'merchantReference' ? value : this.#owners.get(value);
    const record = owner === undefined ? undefined : this.#rows.get(owner);
    return record && record[field] === value ? copyRecord(record) : undefined;
  }
  getMany(references: string[]): Map<string, TransactionRecord> {
    const found = new Map<string, TransactionRecord>();
    for (const reference of references) {
      const record = this.#rows.get(reference);
      if (record) found.set(reference, copyRecord(record));
    }
    return found;
  }
  list(filter: ParsedListOpen): TransactionRecord[] {
    const { statuses, product, checkedBefore, limit, oldestFirst, after } = filter;
    return [...this.#rows.values()]
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
}
