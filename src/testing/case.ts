import type { StoreCalls } from './store-calls.js';

/** The instant every case's clock starts at. */
export const caseStart = Date.parse('2025-03-01T08:00:00.000Z');

/** A clock the case moves by hand: leases expire and retries fall due without waiting. */
export interface CaseClock {
  now(): Date;
  /** `ms` after the case's start: what `now()` said before any `advance`, plus `ms`. */
  at(ms: number): Date;
  advance(ms: number): void;
}

export interface CaseContext {
  readonly clock: CaseClock;
  /** The case's store, on a new, empty database. Calling it again returns the same handle. */
  open(): Promise<StoreCalls>;
  /**
   * Another handle on the case's database: alongside the first (a second process) or after it
   * was closed (a restart). An in-process store may hand back the same object.
   */
  another(): Promise<StoreCalls>;
}

/** One rule of the store's contract, checked against a fresh database. */
export interface StoreCase {
  /** `rule › case`: unique, and stable enough to pick cases by (`only`). */
  readonly name: string;
  /** Reads or moves the kit's clock: runs only on a store that keeps time by `open({ now })`. */
  readonly clock: boolean;
  /** Closes the store and opens the same database again: runs only on a persistent store. */
  readonly restart: boolean;
  run(context: CaseContext): Promise<void>;
}

type Body = (context: CaseContext) => Promise<void>;

export interface CaseWriter {
  (name: string, run: Body): void;
  (name: string, needs: { clock?: true; restart?: true }, run: Body): void;
}

/** The cases of one rule, written as a test file would be: `it('does this', async (t) => …)`. */
export function rule(title: string, write: (it: CaseWriter) => void): StoreCase[] {
  const cases: StoreCase[] = [];
  const it = ((name: string, second: Body | { clock?: true; restart?: true }, third?: Body) => {
    const needs = typeof second === 'function' ? {} : second;
    const run = typeof second === 'function' ? second : third;
    if (run === undefined) throw new TypeError(`case ${name} has no body`);
    cases.push({
      name: `${title} › ${name}`,
      clock: needs.clock === true,
      restart: needs.restart === true,
      run,
    });
  }) as CaseWriter;
  write(it);
  return cases;
}
