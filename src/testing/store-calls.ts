import { AssertionError } from 'node:assert/strict';
import { InvalidTransitionError } from '../errors/invalid-transition-error.js';
import { Ledger } from '../ledger/ledger.js';
import type { EffectOutbox } from '../references/effects.js';
import type { CallbackInbox } from '../references/inbox/types.js';
import { parseTransition } from '../references/input-rules.js';
import { reportsOf } from '../references/listed-reports.js';
import type { SharedRateLimit } from '../references/rate-limit/types.js';
import type { References, TransactionRecord } from '../references/record.js';
import type { SchedulingStore } from '../references/schedule/types.js';
import type {
  ReferenceStore,
  ResolveOptions,
  StoreReports,
  TransactionRecords,
  TransitionDetails,
} from '../references/types.js';
import type { WalletFloat } from '../references/wallet-float.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import { show } from './assertions.js';

/** A move through pesakit's ledger, told the way the cases tell it (`leaseToken` fences it). */
type Details = TransitionDetails & { leaseToken?: string };
type Moved = { record: TransactionRecord; changed: boolean; from: TransactionStatus };

/**
 * The store as the cases call it. Every case reaches the store through these calls only, so a
 * change in the store's interface is one edit here and none in the cases. Each call checks that
 * the part and its method exist and that what it resolved to has the shape the interface
 * promises: a store returning garbage fails with a message naming the method, not with a
 * TypeError deep inside a case. Records move as pesakit moves them: through its ledger over
 * `records.move()` (`transition`, `attachReferences`, `attachAndTransition`, `resolve`), a refused
 * move throwing `InvalidTransitionError` as a direct request would. A store without `reports`
 * gets the ones `reportsOf` computes from `records.list`.
 */
export interface StoreCalls {
  readonly records: TransactionRecords;
  readonly schedule: SchedulingStore;
  readonly effects: EffectOutbox;
  readonly inbox: CallbackInbox;
  readonly wallets: WalletFloat;
  readonly rateLimit: SharedRateLimit;
  readonly reports: StoreReports;
  attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord>;
  transition(merchantReference: string, to: TransactionStatus, details?: Details): Promise<Moved>;
  attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: Details,
  ): Promise<Moved>;
  resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord>;
  close(): Promise<void>;
}

type Check = (value: unknown) => string | undefined;

const record: Check = (value) =>
  isObject(value) &&
  typeof value['merchantReference'] === 'string' &&
  typeof value['status'] === 'string'
    ? undefined
    : 'a transaction record';
const maybeRecord: Check = (value) => (value === undefined ? undefined : record(value));
const recordList: Check = listOf(record, 'an array of transaction records');
const committed: Check = (value) =>
  isObject(value) && typeof value['applied'] === 'boolean' && record(value['record']) === undefined
    ? undefined
    : '{ record, applied }';
const leased: Check = listOf(
  (value) =>
    isObject(value) && typeof value['token'] === 'string' && record(value['record']) === undefined
      ? undefined
      : 'x',
  'an array of { record, token }',
);
const flag: Check = (value) => (typeof value === 'boolean' ? undefined : 'true or false');
const array: Check = (value) => (Array.isArray(value) ? undefined : 'an array');
const object: Check = (value) => (isObject(value) ? undefined : 'an object');
const entry: Check = (value) =>
  isObject(value) && typeof value['id'] === 'string' ? undefined : 'an inbox entry';
const maybeEntry: Check = (value) => (value === undefined ? undefined : entry(value));
const appended: Check = (value) =>
  isObject(value) && typeof value['duplicate'] === 'boolean' && entry(value['entry']) === undefined
    ? undefined
    : '{ entry, duplicate }';
const inboxClaims: Check = listOf(
  (value) =>
    isObject(value) && typeof value['token'] === 'string' && entry(value['entry']) === undefined
      ? undefined
      : 'x',
  'an array of { entry, token }',
);
const grant: Check = (value) =>
  isObject(value) &&
  typeof value['granted'] === 'number' &&
  typeof value['waitMs'] === 'number' &&
  (value['pausedUntil'] === null || value['pausedUntil'] instanceof Date)
    ? undefined
    : '{ granted, waitMs, pausedUntil }';
const pause: Check = (value) =>
  isObject(value) && value['pausedUntil'] instanceof Date ? undefined : '{ pausedUntil }';
const nothing: Check = () => undefined;

/** The calls on `store`; `where` names it in messages (`store`, `the second store`). */
export function storeCalls(store: ReferenceStore, where = 'store'): StoreCalls {
  if (!isObject(store)) {
    throw new AssertionError({ message: `factory.open() resolved to ${show(store)}, not a store` });
  }
  const on = (target: object, name: string, path: string, check: Check) => {
    return async (...args: unknown[]) => {
      const method = (target as Record<string, unknown>)[name];
      if (typeof method !== 'function') {
        throw new AssertionError({ message: `${path} is not a function (it is ${show(method)})` });
      }
      const value: unknown = await method.apply(target, args);
      const wanted = check(value);
      if (wanted !== undefined) {
        throw new AssertionError({
          message: `${path}() resolved to ${show(value)}, not ${wanted}`,
        });
      }
      return value;
    };
  };
  const part =
    <Part>(key: keyof ReferenceStore, what: string, target: unknown = store[key]) =>
    (name: keyof Part & string, check: Check) => {
      if (!isObject(target)) {
        return (async () => {
          throw new AssertionError({ message: `${where}.${key} is ${show(target)}, not ${what}` });
        }) as never;
      }
      return on(target, name, `${where}.${key}.${name}`, check) as never;
    };
  const records = part<TransactionRecords>('records', 'the records part');
  const schedule = part<SchedulingStore>('schedule', 'the schedule part');
  const effects = part<EffectOutbox>('effects', 'an effect outbox');
  const inbox = part<CallbackInbox>('inbox', 'an inbox');
  const rateLimit = part<SharedRateLimit>('rateLimit', 'a rate limit');
  const reports = part<StoreReports>('reports', 'the reports part', reportsOf(store));
  const create = records('create', record);
  const get = records('get', maybeRecord);
  const move = records('move', committed);
  const ledger = new Ledger({ records: { create, get, move } });
  const moveTo = async (
    reference: string,
    refs: References | undefined,
    to: TransactionStatus,
    details: Details = {},
  ): Promise<Moved> => {
    // Details that are no object are refused as the ledger's own input check words it.
    if (typeof details !== 'object' || details === null) parseTransition(to, details);
    const { leaseToken, ...told } = details;
    const by = leaseToken === undefined ? ledger : ledger.fenced(leaseToken);
    const result = await by.move(reference, { ...told, to, ...(refs ? { references: refs } : {}) });
    if (result.overtaken) {
      throw new InvalidTransitionError({ merchantReference: reference, from: result.from, to });
    }
    return result;
  };
  return {
    records: {
      create,
      move,
      get,
      getMany: records('getMany', array),
      find: records('find', maybeRecord),
      list: records('list', recordList),
    },
    schedule: {
      lease: schedule('lease', leased),
      release: schedule('release', flag),
      observations: schedule('observations', array),
    },
    effects: {
      claim: effects('claim', leased),
      complete: effects('complete', flag),
      fail: effects('fail', flag),
      retry: effects('retry', record),
      list: effects('list', recordList),
    },
    inbox: {
      append: inbox('append', appended),
      claim: inbox('claim', inboxClaims),
      finish: inbox('finish', flag),
      requeue: inbox('requeue', entry),
      get: inbox('get', maybeEntry),
      backlog: inbox('backlog', object),
      list: inbox('list', array),
      prune: inbox('prune', object),
    },
    wallets: {
      recordBalance: part<WalletFloat>('wallets', 'the wallets part')('recordBalance', object),
    },
    rateLimit: {
      take: rateLimit('take', grant),
      pause: rateLimit('pause', pause),
    },
    reports: {
      summary: reports('summary', object),
      operations: reports('operations', object),
      review: reports('review', recordList),
    },
    attachReferences: async (reference, refs) =>
      (await ledger.move(reference, { references: refs })).record,
    transition: (reference, to, details) => moveTo(reference, undefined, to, details),
    attachAndTransition: (reference, refs, to, details) => moveTo(reference, refs, to, details),
    resolve: (reference, outcome, options) => ledger.resolve(reference, outcome, options),
    close: on(store, 'close', `${where}.close`, nothing) as never,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function listOf(item: Check, wanted: string): Check {
  return (value) =>
    Array.isArray(value) && value.every((each) => item(each) === undefined) ? undefined : wanted;
}
