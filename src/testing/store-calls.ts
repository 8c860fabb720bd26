import { AssertionError } from 'node:assert/strict';
import { InvalidTransitionError } from '../errors/invalid-transition-error.js';
import { Ledger } from '../ledger/ledger.js';
import type { CallbackInbox } from '../references/inbox/types.js';
import { parseTransition } from '../references/input-rules.js';
import type { SharedRateLimit } from '../references/rate-limit/types.js';
import type { References, TransactionRecord } from '../references/record.js';
import type { ReferenceStore, ResolveOptions, TransitionDetails } from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import { show } from './assertions.js';

/** A move through pesakit's ledger, told the way the cases tell it (`leaseToken` fences it). */
type Details = TransitionDetails & { leaseToken?: string };
type Moved = { record: TransactionRecord; changed: boolean; from: TransactionStatus };

/**
 * The store as the cases call it. Every case reaches the store through these calls only, so a
 * change in the store's interface (a method renamed, moved into a part) is one edit here and none
 * in the cases. Each call checks that the method exists and that what it resolved to has the
 * shape the interface promises: a store returning garbage fails with a message naming the
 * method, not with a TypeError deep inside a case. Records move as pesakit moves them: through
 * its ledger over `store.move()` (`transition`, `attachReferences`, `attachAndTransition`,
 * `resolve`), a refused move throwing `InvalidTransitionError` as a direct request would.
 */
export interface StoreCalls {
  createIntent: ReferenceStore['createIntent'];
  move: ReferenceStore['move'];
  attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord>;
  transition(merchantReference: string, to: TransactionStatus, details?: Details): Promise<Moved>;
  attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: Details,
  ): Promise<Moved>;
  get: ReferenceStore['get'];
  getMany: ReferenceStore['getMany'];
  findByReference: ReferenceStore['findByReference'];
  find: ReferenceStore['find'];
  listOpen: ReferenceStore['listOpen'];
  recordCheck: ReferenceStore['recordCheck'];
  summarize: ReferenceStore['summarize'];
  operationsReport: ReferenceStore['operationsReport'];
  resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord>;
  listReview: ReferenceStore['listReview'];
  claimEffects: ReferenceStore['claimEffects'];
  completeEffect: ReferenceStore['completeEffect'];
  failEffect: ReferenceStore['failEffect'];
  retryEffect: ReferenceStore['retryEffect'];
  listEffects: ReferenceStore['listEffects'];
  leaseDue: ReferenceStore['leaseDue'];
  releaseLease: ReferenceStore['releaseLease'];
  readObservations: ReferenceStore['readObservations'];
  recordWalletBalance: ReferenceStore['recordWalletBalance'];
  readonly inbox: CallbackInbox;
  readonly rateLimit: SharedRateLimit;
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
const records: Check = listOf(record, 'an array of transaction records');
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
  const call = (name: keyof ReferenceStore, check: Check) =>
    on(store, name, `${where}.${name}`, check) as never;
  const part = (key: 'inbox' | 'rateLimit', what: string) => (name: string, check: Check) => {
    const target = (store as { [part: string]: unknown })[key];
    if (!isObject(target)) {
      return (async () => {
        throw new AssertionError({ message: `${where}.${key} is ${show(target)}, not ${what}` });
      }) as never;
    }
    return on(target, name, `${where}.${key}.${name}`, check) as never;
  };
  const get = call('get', maybeRecord);
  const move = call('move', committed);
  const ledger = new Ledger({ createIntent: call('createIntent', record), get, move });
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
  const inbox: (name: keyof CallbackInbox, check: Check) => never = part('inbox', 'an inbox');
  const rateLimit: (name: keyof SharedRateLimit, check: Check) => never = part(
    'rateLimit',
    'a rate limit',
  );
  return {
    createIntent: call('createIntent', record),
    move,
    attachReferences: async (reference, refs) =>
      (await ledger.move(reference, { references: refs })).record,
    transition: (reference, to, details) => moveTo(reference, undefined, to, details),
    attachAndTransition: (reference, refs, to, details) => moveTo(reference, refs, to, details),
    get,
    getMany: call('getMany', array),
    findByReference: call('findByReference', maybeRecord),
    find: call('find', maybeRecord),
    listOpen: call('listOpen', records),
    recordCheck: call('recordCheck', record),
    summarize: call('summarize', object),
    operationsReport: call('operationsReport', object),
    resolve: (reference, outcome, options) => ledger.resolve(reference, outcome, options),
    listReview: call('listReview', records),
    claimEffects: call('claimEffects', leased),
    completeEffect: call('completeEffect', flag),
    failEffect: call('failEffect', flag),
    retryEffect: call('retryEffect', record),
    listEffects: call('listEffects', records),
    leaseDue: call('leaseDue', leased),
    releaseLease: call('releaseLease', flag),
    readObservations: call('readObservations', array),
    recordWalletBalance: call('recordWalletBalance', object),
    inbox: {
      append: inbox('append', appended),
      claim: inbox('claim', inboxClaims),
      complete: inbox('complete', flag),
      reschedule: inbox('reschedule', flag),
      deadLetter: inbox('deadLetter', flag),
      requeue: inbox('requeue', entry),
      get: inbox('get', maybeEntry),
      backlog: inbox('backlog', object),
      list: inbox('list', array),
      prune: inbox('prune', object),
    },
    rateLimit: {
      take: rateLimit('take', grant),
      pause: rateLimit('pause', pause),
    },
    close: call('close', nothing),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function listOf(item: Check, wanted: string): Check {
  return (value) =>
    Array.isArray(value) && value.every((each) => item(each) === undefined) ? undefined : wanted;
}
