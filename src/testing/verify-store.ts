import { AssertionError } from 'node:assert/strict';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { ReferenceStore } from '../references/types.js';
import { show } from './assertions.js';
import { type CaseClock, type CaseContext, caseStart, type StoreCase } from './case.js';
import { storeCases } from './cases/index.js';
import { type StoreCalls, storeCalls } from './store-calls.js';

/** What `verifyStore` passes to `factory.open()`. */
export interface StoreOpenOptions {
  /**
   * `true`: open the store on a new, empty database (every case starts with one). `false`:
   * another handle on the database the last `fresh` open made — used alongside the first (two
   * processes racing) and, for a persistent store, after the first was closed (a restart).
   */
  fresh: boolean;
  /**
   * The case's clock, moved by hand. A store that takes every instant it writes from it
   * (`createdAt`, lease expiry, due times) lets the kit check time-dependent rules without
   * waiting; the cases that need it are listed in `skipped` for a store that does not.
   */
  now: () => Date;
}

/** How the kit gets stores of the kind under test. */
export interface StoreFactory {
  open(options: StoreOpenOptions): Promise<ReferenceStore>;
  /** Called once, when the run ends: drop the databases, delete the files. */
  dispose?(): Promise<void>;
  /**
   * `false`: the data lives in the store object and ends with `close()` (an in-memory store).
   * `open({ fresh: false })` then hands back the same object, and the cases that close a store
   * and open its database again are listed in `skipped`. @default true
   */
  persistent?: boolean;
}

export interface VerifyStoreOptions {
  /**
   * How long one case may take, opening and closing its stores included. The longest case
   * writes and prunes 1,050 callbacks: a few seconds on a database that fsyncs every commit.
   * @default 30_000
   */
  timeoutMs?: number;
  /** Run only these cases (names from `storeCaseNames()`), e.g. one test per case. */
  only?: readonly string[];
}

export interface VerifyStoreResult {
  /** How many cases passed. */
  passed: number;
  /** Each failed case, with what went wrong. */
  failed: Array<{ name: string; error: string }>;
  /** Cases not run, and why (the store keeps its own time, or does not persist). */
  skipped: Array<{ name: string; reason: string }>;
}

/** The names of every case `verifyStore` runs, in order. */
export function storeCaseNames(): string[] {
  return storeCases().map((each) => each.name);
}

/**
 * Runs the store conformance suite — the rules memory, SQLite and PostgreSQL pass — against the
 * stores `factory` opens. A failing store never makes it throw: every case that fails (an
 * assertion, a method that throws, a call that hangs past `timeoutMs`, a result of the wrong
 * shape) is in `failed`, named. A store conforms when `failed` and `skipped` are both empty.
 */
export async function verifyStore(
  factory: StoreFactory,
  options: VerifyStoreOptions = {},
): Promise<VerifyStoreResult> {
  if (typeof factory?.open !== 'function') {
    throw new ConfigurationError('factory', 'verifyStore(factory) needs factory.open(options).');
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new ConfigurationError('timeoutMs', 'timeoutMs must be a whole number of ms above 0.');
  }
  const all = storeCases();
  const result: VerifyStoreResult = { passed: 0, failed: [], skipped: [] };
  const cases = options.only ? all.filter((each) => options.only?.includes(each.name)) : all;
  for (const name of options.only ?? []) {
    if (!all.some((each) => each.name === name)) {
      result.failed.push({ name, error: 'no case of pesakit/testing has this name' });
    }
  }
  const clockless = cases.some((each) => each.clock)
    ? await clockOf(factory, timeoutMs)
    : undefined;
  for (const each of cases) {
    if (each.clock && clockless !== undefined) {
      result.skipped.push({ name: each.name, reason: clockless });
    } else if (each.restart && factory.persistent === false) {
      result.skipped.push({
        name: each.name,
        reason: 'the factory says its store does not persist (persistent: false)',
      });
    } else {
      const error = await runCase(factory, each, timeoutMs);
      if (error === undefined) result.passed += 1;
      else result.failed.push({ name: each.name, error });
    }
  }
  if (factory.dispose) {
    const error = await settle(() => factory.dispose?.(), timeoutMs, 'factory.dispose()');
    if (error !== undefined) result.failed.push({ name: 'factory.dispose()', error });
  }
  return result;
}

/** Runs one case against a fresh database; its failure as text, or undefined when it passed. */
async function runCase(
  factory: StoreFactory,
  each: StoreCase,
  timeoutMs: number,
): Promise<string | undefined> {
  const clock = manualClock();
  const handles: Array<{ store: ReferenceStore; closed: boolean }> = [];
  let first: StoreCalls | undefined;
  const openOne = async (fresh: boolean, where: string) => {
    const store = await factory.open({ fresh, now: clock.storeNow });
    const known = handles.find((handle) => handle.store === store);
    const handle = known ?? { store, closed: false };
    if (!known) handles.push(handle);
    const calls = storeCalls(store, where);
    const close = calls.close;
    return Object.assign(calls, {
      close: async () => {
        handle.closed = true;
        await close();
      },
    });
  };
  const context: CaseContext = {
    clock: clock.forCase,
    open: async () => {
      first ??= await openOne(true, 'store');
      return first;
    },
    another: async () => {
      await context.open();
      return openOne(false, 'the second store');
    },
  };
  let error = await settle(() => each.run(context), timeoutMs, 'the case');
  if (error === undefined && clock.usedByCase() && !each.clock) {
    error = 'the case moves the clock but is not marked as needing it (a fault of pesakit/testing)';
  }
  for (const handle of handles) {
    if (handle.closed) continue;
    const closing = await settle(() => handle.store.close(), timeoutMs, 'store.close()');
    error ??= closing;
  }
  return error;
}

/**
 * The clock probe's answer, once per factory: a runner that calls `verifyStore` once per case
 * (`only`) does not pay for it each time.
 */
const probed = new WeakMap<StoreFactory, Promise<string | undefined>>();

function clockOf(factory: StoreFactory, timeoutMs: number): Promise<string | undefined> {
  let answer = probed.get(factory);
  if (answer === undefined) {
    answer = probeClock(factory, timeoutMs);
    probed.set(factory, answer);
  }
  return answer;
}

/**
 * Whether the store keeps time by the clock it is given: an intent written at the case's start
 * and one written an hour later must say so. Undefined when it does (or when the store fails
 * before telling: its cases then fail on their own); else why the clock's cases cannot run.
 */
async function probeClock(factory: StoreFactory, timeoutMs: number): Promise<string | undefined> {
  const clock = manualClock();
  let seen: Date[] = [];
  let store: ReferenceStore | undefined;
  const probe = async () => {
    store = await factory.open({ fresh: true, now: clock.storeNow });
    const calls = storeCalls(store);
    const intent = { product: 'collection', flow: 'mno', amount: 1000 } as const;
    const early = await calls.records.create({ merchantReference: 'clock-probe-1', ...intent });
    clock.forCase.advance(3_600_000);
    const late = await calls.records.create({ merchantReference: 'clock-probe-2', ...intent });
    seen = [early.createdAt, late.createdAt];
  };
  await settle(probe, timeoutMs, 'the clock probe');
  if (store) await settle(() => store?.close(), timeoutMs, 'store.close()');
  const [early, late] = seen;
  if (!(early instanceof Date) || !(late instanceof Date)) return undefined;
  if (early.getTime() === caseStart && late.getTime() === caseStart + 3_600_000) return undefined;
  return (
    'needs a store that keeps time by open({ now }): two intents written an hour apart by that ' +
    `clock (from ${new Date(caseStart).toISOString()}) got createdAt ${show(early)} and ${show(late)}`
  );
}

function manualClock() {
  let now = caseStart;
  let used = false;
  const forCase: CaseClock = {
    now: () => {
      used = true;
      return new Date(now);
    },
    at: (ms) => {
      used = true;
      return new Date(caseStart + ms);
    },
    advance: (ms) => {
      used = true;
      now += ms;
    },
  };
  return { forCase, storeNow: () => new Date(now), usedByCase: () => used };
}

/**
 * Runs `work` for at most `timeoutMs`; what went wrong as text, or undefined. A call that never
 * settles is left behind (nothing can cancel it) and reported as such.
 */
async function settle(
  work: () => unknown,
  timeoutMs: number,
  what: string,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(`${what} did not finish within ${timeoutMs} ms (a store call that never settles?)`),
      timeoutMs,
    );
  });
  const done = (async () => {
    try {
      await work();
      return undefined;
    } catch (error) {
      return describe(error);
    }
  })();
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (error instanceof AssertionError) return error.message;
  if (error instanceof Error) return `threw ${error.name}: ${error.message}`;
  return `threw ${show(error)}`;
}
