import { guardPart } from '../errors/store-error.js';
import type { ClaimEffectsOptions, EffectClaim, EffectKind, EffectOutbox } from './effects.js';
import { notDead } from './input-rules/common.js';
import {
  isLookupable,
  type ParsedClaim,
  type ParsedIntent,
  type ParsedMove,
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
  parseOperationsReport,
  type ReportWindow,
  reportOf,
} from './operations-report.js';
import type { EffectStatus, ReferenceField, TransactionRecord } from './record.js';
import {
  type ParsedLeaseDue,
  type ParsedRelease,
  parseLeaseDue,
  parseRelease,
} from './schedule/input-rules.js';
import type { LeasedRecord, SchedulingStore } from './schedule/types.js';
import type { MoveCommit, StoreReports, StoreSummary, TransactionRecords } from './types.js';
import { parseWalletBalance, type WalletFloat, type WalletFloatState } from './wallet-float.js';

// pesakit's own stores implement each part below over input already checked, with the public
// part's method names; `checked…` turns such a part into the public one. Every store checks each
// call's input here, in one order, before it touches anything — memory and SQL refuse the same
// input with the same error — and a driver's error leaves the part as a `StoreError` named
// `<part>.<method>` (`guardPart`).

type Maybe<T> = T | Promise<T>;
type ListedEffect = Exclude<EffectStatus, 'none' | 'done'>;
export type ParsedListOpen = ReturnType<typeof parseListOpen>;

export interface RecordsPart {
  create(intent: ParsedIntent): Promise<TransactionRecord>;
  move(merchantReference: string, move: ParsedMove): Promise<MoveCommit>;
  /** The records stored under `references` (each a valid merchant reference), by reference. */
  getMany(references: string[]): Maybe<Map<string, TransactionRecord>>;
  /** `field` absent: any reference kind, the merchant reference first. */
  find(by: { field?: ReferenceField; value: string }): Maybe<TransactionRecord | undefined>;
  list(filter: ParsedListOpen): Maybe<TransactionRecord[]>;
}

export interface SchedulePart {
  lease(options: ParsedLeaseDue): Maybe<LeasedRecord[]>;
  release(merchantReference: string, options: ParsedRelease): Maybe<boolean>;
  observations(merchantReference: string): Maybe<unknown[]>;
}

export interface EffectsPart {
  claim(options: ParsedClaim): Maybe<EffectClaim[]>;
  complete(merchantReference: string, token: string): Maybe<boolean>;
  fail(
    merchantReference: string,
    token: string,
    failure: { error: string; retryAt: Date | null },
  ): Maybe<boolean>;
  list(
    status: ListedEffect,
    limit: number,
    handles: readonly EffectKind[],
  ): Maybe<TransactionRecord[]>;
  /** `dead` → `due` now; the record as it is after, and whether it was dead. */
  retry(merchantReference: string): Maybe<{ record: TransactionRecord; retried: boolean }>;
}

export interface WalletsPart {
  /** Reads what is settled, then `readCents`, then keeps the balance: in that order. */
  recordBalance(account: string, readCents: () => Promise<number>): Maybe<WalletFloatState>;
}

export interface ReportsPart {
  summary(): Maybe<StoreSummary>;
  /** The finals of the report's windows, counted (see `FinalTallies`). */
  operations(window: ReportWindow): Maybe<FinalTallies>;
  review(limit: number, after: string | undefined): Maybe<TransactionRecord[]>;
}

export function checkedRecords(part: RecordsPart): TransactionRecords {
  const find: TransactionRecords['find'] = async (by) => {
    const { field, value } = parseFindBy(by);
    if (!isLookupable(value)) return undefined;
    return part.find(field === undefined ? { value } : { field, value });
  };
  return guardPart('records', {
    create: async (intent) => part.create(parseIntent(intent)),
    move: async (merchantReference, move) =>
      part.move(parseMerchantReference('records.move', merchantReference), parseMove(move)),
    get: async (merchantReference) =>
      find({ field: 'merchantReference', value: merchantReference }),
    getMany: async (merchantReferences) => {
      const asked = parseMerchantReferences(merchantReferences);
      const valid = [...new Set(asked.filter(isLookupable))];
      const found = valid.length > 0 ? await part.getMany(valid) : new Map();
      return asked.map((reference) => found.get(reference));
    },
    find,
    list: async (options) => part.list(parseListOpen(options)),
  } satisfies TransactionRecords);
}

export function checkedSchedule(part: SchedulePart): SchedulingStore {
  return guardPart('schedule', {
    lease: async (options) => part.lease(parseLeaseDue(options)),
    release: async (merchantReference, token, options) =>
      part.release(
        parseMerchantReference('schedule.release', merchantReference),
        parseRelease(token, options),
      ),
    observations: async (merchantReference) =>
      part.observations(parseMerchantReference('schedule.observations', merchantReference)),
  } satisfies SchedulingStore);
}

export function checkedEffects(part: EffectsPart): EffectOutbox {
  return guardPart('effects', {
    claim: async (options: ClaimEffectsOptions) => part.claim(parseClaimEffects(options)),
    complete: async (merchantReference, token) =>
      part.complete(parseMerchantReference('effects.complete', merchantReference), token),
    fail: async (merchantReference, token, options) =>
      part.fail(
        parseMerchantReference('effects.fail', merchantReference),
        token,
        parseFailEffect(options),
      ),
    retry: async (merchantReference) => {
      const reference = parseMerchantReference('effects.retry', merchantReference);
      const { record, retried } = await part.retry(reference);
      if (!retried) throw notDead('effects.retry', 'effect.status', record.effect.status);
      return record;
    },
    list: async (status, options) => {
      const listed = parseEffectStatus(status);
      const { limit } = parseListPage('effects.list', options);
      return part.list(listed, limit, parseEffectKinds(options?.handles));
    },
  } satisfies EffectOutbox);
}

export function checkedWallets(part: WalletsPart): WalletFloat {
  return guardPart('wallets', {
    recordBalance: async (account, readBalance) => {
      const checked = parseWalletBalance(account, 0).account;
      return part.recordBalance(
        checked,
        async () => parseWalletBalance(checked, await readBalance()).balance,
      );
    },
  } satisfies WalletFloat);
}

/** `now`: the store's clock, the end of a report's window when the caller names none. */
export function checkedReports(part: ReportsPart, now: () => Date): StoreReports {
  return guardPart('reports', {
    summary: async () => part.summary(),
    operations: async (options) => {
      const window = parseOperationsReport(options, now());
      return reportOf(await part.operations(window), window);
    },
    review: async (options) => {
      const { limit, after } = parseListPage('reports.review', options);
      return part.review(limit, after);
    },
  } satisfies StoreReports);
}
