import { AssertionError } from 'node:assert/strict';
import type { CallbackInbox } from '../references/inbox/types.js';
import type { SharedRateLimit } from '../references/rate-limit/types.js';
import type { ReferenceStore } from '../references/types.js';
import { show } from './assertions.js';

/**
 * The store as the cases call it. Every case reaches the store through these calls only, so a
 * change in the store's interface (a method renamed, moved into a part) is one edit here and none
 * in the cases. Each call checks that the method exists and that what it resolved to has the
 * shape the interface promises: a store returning garbage fails with a message naming the
 * method, not with a TypeError deep inside a case.
 */
export interface StoreCalls {
  createIntent: ReferenceStore['createIntent'];
  attachReferences: ReferenceStore['attachReferences'];
  transition: ReferenceStore['transition'];
  attachAndTransition: ReferenceStore['attachAndTransition'];
  get: ReferenceStore['get'];
  getMany: ReferenceStore['getMany'];
  findByReference: ReferenceStore['findByReference'];
  find: ReferenceStore['find'];
  listOpen: ReferenceStore['listOpen'];
  recordCheck: ReferenceStore['recordCheck'];
  summarize: ReferenceStore['summarize'];
  operationsReport: ReferenceStore['operationsReport'];
  resolve: ReferenceStore['resolve'];
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
// `from` is what the ledger publishes as the status the record left.
const moved: Check = (value) =>
  isObject(value) &&
  typeof value['changed'] === 'boolean' &&
  typeof value['from'] === 'string' &&
  record(value['record']) === undefined
    ? undefined
    : '{ record, changed, from }';
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
  const inbox: (name: keyof CallbackInbox, check: Check) => never = part('inbox', 'an inbox');
  const rateLimit: (name: keyof SharedRateLimit, check: Check) => never = part(
    'rateLimit',
    'a rate limit',
  );
  return {
    createIntent: call('createIntent', record),
    attachReferences: call('attachReferences', record),
    transition: call('transition', moved),
    attachAndTransition: call('attachAndTransition', moved),
    get: call('get', maybeRecord),
    getMany: call('getMany', array),
    findByReference: call('findByReference', maybeRecord),
    find: call('find', maybeRecord),
    listOpen: call('listOpen', records),
    recordCheck: call('recordCheck', record),
    summarize: call('summarize', object),
    operationsReport: call('operationsReport', object),
    resolve: call('resolve', record),
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
