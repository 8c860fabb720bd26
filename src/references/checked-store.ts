import { guardStoreErrors } from '../errors/store-error.js';
import type { ClaimEffectsOptions, EffectClaim, EffectKind, FailEffectOptions } from './effects.js';
import type { CallbackInbox } from './inbox/types.js';
import { notDead } from './input-rules/common.js';
import {
  isLookupable,
  type ParsedClaim,
  type ParsedIntent,
  type ParsedMove,
  parseCheckTime,
  parseClaimEffects,
  parseEffectKinds,
  parseEffectStatus,
  parseFailEffect,
  parseFindBy,
  parseIntent,
  parseListOpen,
  parseListPage,
  parseMerchantReference,
  parseMerchantReferences,
  parseMove,
} from './input-rules.js';
import {
  type FinalTallies,
  type OperationsReport,
  type OperationsReportOptions,
  parseOperationsReport,
  type ReportWindow,
  reportOf,
} from './operations-report.js';
import type { SharedRateLimit } from './rate-limit/types.js';
import type { EffectStatus, ReferenceField, TransactionRecord } from './record.js';
import {
  type ParsedLeaseDue,
  type ParsedRelease,
  parseLeaseDue,
  parseRelease,
} from './schedule/input-rules.js';
import type { LeaseDueOptions, LeasedRecord, ReleaseLeaseOptions } from './schedule/types.js';
import type {
  ListOpenOptions,
  MoveCommit,
  RecordMove,
  ReferenceStore,
  StoreSummary,
  TransactionIntent,
} from './types.js';
import { parseWalletBalance, type WalletFloatState } from './wallet-float.js';

type Maybe<T> = T | Promise<T>;
type ListedEffect = Exclude<EffectStatus, 'none' | 'done'>;
export type ParsedListOpen = ReturnType<typeof parseListOpen>;

/** Where a store keeps its effect outbox; its input is checked already. */
export interface EffectsPart {
  claim(options: ParsedClaim): Maybe<EffectClaim[]>;
  complete(merchantReference: string, token: string): Maybe<boolean>;
  fail(merchantReference: string, token: string, failure: FailEffectOptions): Maybe<boolean>;
  list(
    status: ListedEffect,
    limit: number,
    handles: readonly EffectKind[],
  ): Maybe<TransactionRecord[]>;
  /** `dead` → `due` now; the record as it is after, and whether it was dead. */
  retry(merchantReference: string): Maybe<{ record: TransactionRecord; retried: boolean }>;
}

/**
 * Every store checks each call's input here, in one order, before it touches anything, so the
 * memory and SQL stores refuse the same input with the same error; they implement the rest.
 */
export abstract class CheckedReferenceStore implements ReferenceStore {
  abstract readonly inbox: CallbackInbox;
  abstract readonly rateLimit: SharedRateLimit;
  protected abstract readonly effects: EffectsPart;
  protected abstract now(): Date;
  protected abstract writeIntent(intent: ParsedIntent): Promise<TransactionRecord>;
  /** What the account's payouts have taken that a balance read from now on shows (cents). */
  protected abstract walletSettled(account: string): Maybe<number>;
  protected abstract writeWalletBalance(
    account: string,
    cents: number,
    settled: number,
  ): Maybe<WalletFloatState>;
  protected abstract commitMove(reference: string, move: ParsedMove): Promise<MoveCommit>;
  protected abstract lookup(
    field: ReferenceField,
    value: string,
  ): Maybe<TransactionRecord | undefined>;
  protected abstract lookupAny(value: string): Maybe<TransactionRecord | undefined>;
  /** The records stored under `references` (each a valid merchant reference), by reference. */
  protected abstract lookupMany(references: string[]): Maybe<Map<string, TransactionRecord>>;
  protected abstract listOpenRecords(filter: ParsedListOpen): Maybe<TransactionRecord[]>;
  protected abstract countCheck(reference: string, at: Date): Maybe<TransactionRecord>;
  protected abstract lease(options: ParsedLeaseDue): Maybe<LeasedRecord[]>;
  protected abstract release(reference: string, options: ParsedRelease): Maybe<boolean>;
  protected abstract observationsOf(reference: string): Maybe<unknown[]>;
  protected abstract summaryOf(): Maybe<StoreSummary>;
  /** The finals of the report's windows, counted (see `FinalTallies`). */
  protected abstract finalTallies(window: ReportWindow): Maybe<FinalTallies>;
  protected abstract reviewPage(
    limit: number,
    after: string | undefined,
  ): Maybe<TransactionRecord[]>;
  abstract close(): Promise<void>;
  async createIntent(intent: TransactionIntent): Promise<TransactionRecord> {
    return this.writeIntent(parseIntent(intent));
  }
  async recordWalletBalance(
    account: string,
    readBalance: () => Promise<number>,
  ): Promise<WalletFloatState> {
    const settled = await this.walletSettled(parseWalletBalance(account, 0).account);
    const parsed = parseWalletBalance(account, await readBalance());
    return this.writeWalletBalance(parsed.account, parsed.balance, settled);
  }
  async move(merchantReference: string, move: RecordMove): Promise<MoveCommit> {
    const reference = parseMerchantReference('move', merchantReference);
    return this.commitMove(reference, parseMove(move));
  }
  async get(merchantReference: string): Promise<TransactionRecord | undefined> {
    return this.find({ field: 'merchantReference', value: merchantReference });
  }
  async getMany(
    merchantReferences: readonly string[],
  ): Promise<Array<TransactionRecord | undefined>> {
    const asked = parseMerchantReferences(merchantReferences);
    const valid = [...new Set(asked.filter(isLookupable))];
    const found = valid.length > 0 ? await this.lookupMany(valid) : new Map();
    return asked.map((reference) => found.get(reference));
  }
  async findByReference(reference: string): Promise<TransactionRecord | undefined> {
    return isLookupable(reference) ? this.lookupAny(reference) : undefined;
  }
  async find(by: { field: ReferenceField; value: string }): Promise<TransactionRecord | undefined> {
    const { field, value } = parseFindBy(by);
    return isLookupable(value) ? this.lookup(field, value) : undefined;
  }
  async listOpen(options?: ListOpenOptions): Promise<TransactionRecord[]> {
    return this.listOpenRecords(parseListOpen(options));
  }
  async recordCheck(merchantReference: string, at?: Date): Promise<TransactionRecord> {
    const reference = parseMerchantReference('recordCheck', merchantReference);
    return this.countCheck(reference, parseCheckTime(at) ?? this.now());
  }
  async leaseDue(options: LeaseDueOptions): Promise<LeasedRecord[]> {
    return this.lease(parseLeaseDue(options));
  }
  async releaseLease(
    merchantReference: string,
    token: string,
    options: ReleaseLeaseOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('releaseLease', merchantReference);
    return this.release(reference, parseRelease(token, options));
  }
  async summarize(): Promise<StoreSummary> {
    return this.summaryOf();
  }
  async operationsReport(options?: OperationsReportOptions): Promise<OperationsReport> {
    const window = parseOperationsReport(options, this.now());
    return reportOf(await this.finalTallies(window), window);
  }
  async readObservations(merchantReference: string): Promise<unknown[]> {
    return this.observationsOf(parseMerchantReference('readObservations', merchantReference));
  }
  async listReview(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]> {
    const { limit, after } = parseListPage('listReview', options);
    return this.reviewPage(limit, after);
  }
  async claimEffects(options: ClaimEffectsOptions): Promise<EffectClaim[]> {
    return this.effects.claim(parseClaimEffects(options));
  }
  async completeEffect(merchantReference: string, token: string): Promise<boolean> {
    return this.effects.complete(
      parseMerchantReference('completeEffect', merchantReference),
      token,
    );
  }
  async failEffect(
    merchantReference: string,
    token: string,
    options: FailEffectOptions,
  ): Promise<boolean> {
    const reference = parseMerchantReference('failEffect', merchantReference);
    return this.effects.fail(reference, token, parseFailEffect(options));
  }
  async retryEffect(merchantReference: string): Promise<TransactionRecord> {
    const reference = parseMerchantReference('retryEffect', merchantReference);
    const { record, retried } = await this.effects.retry(reference);
    if (!retried) throw notDead('retryEffect', 'effect.status', record.effect.status);
    return record;
  }
  async listEffects(
    status: ListedEffect,
    options?: { limit?: number; handles?: readonly EffectKind[] },
  ): Promise<TransactionRecord[]> {
    const listed = parseEffectStatus(status);
    const { limit } = parseListPage('listEffects', options);
    return this.effects.list(listed, limit, parseEffectKinds(options?.handles));
  }
}

// A driver's error leaves every method above as a StoreError; pesakit's own pass as they are.
guardStoreErrors(CheckedReferenceStore.prototype);
