import type { ReferenceStore } from '../references/index.js';
import type { LeaseDueOptions, LeasedRecord } from '../references/schedule/types.js';
import { LeaseMargin } from './lease-margin.js';

/** What {@link DueRecords} takes besides the lease's own options. */
export interface DueRecordsOptions extends LeaseDueOptions {
  /** True once the pass must lease nothing more (close(), an aborted signal). */
  stopped: () => boolean;
  beforeLease: () => void;
  /** The clock, in milliseconds (the reconciler's: the one the store's leases are timed by). */
  now: () => number;
  /**
   * A record is handed out only while its lease has at least this long to run (see
   * {@link leaseMarginMs}); past that it goes to `expired` instead.
   */
  marginMs: number;
  /** A record whose lease ran (nearly) out before a check could take it: not to be checked. */
  expired: (leased: LeasedRecord) => void;
}

/**
 * A leased record handed to a check, with its page's lease margin: the instant (the clock of
 * `now`, ms) from which no request may be sent for it. The rate gate checks it again when the
 * check's request leaves (rate-gate.ts), so a request held back by a 429's pause past it is
 * not sent either.
 */
export type DueRecord = LeasedRecord & { readonly margin: LeaseMargin };

/** A leased page and the earliest instant its leases can expire. */
interface Page {
  records: LeasedRecord[];
  /** The lease's duration from just before it was asked for: never later than the store's. */
  expiresAt: number;
}

/**
 * How long before its lease expires a record is no longer handed to a check: a quarter of the
 * lease. A check started later could still be waiting for the rate gate or for the platform's
 * answer when the lease runs out, and another worker that leases the record then pulls it a
 * second time (its writes stay fenced, but the platform is asked twice and both workers' handlers
 * race). A status pull takes well under a second against a healthy platform; a quarter of the
 * default lease is 15 s, and pages are sized to be handed out within the first three eighths of
 * their lease at `ratePerSecond` (reconciler.ts), so only a pass running far slower than its
 * rate (an overloaded machine, a platform answering in seconds) ever gets here.
 */
export function leaseMarginMs(leaseMs: number): number {
  return Math.floor(leaseMs / 4);
}

/**
 * The records of one pass, leased from the store a keyset page at a time and handed out one by
 * one to the pass's checks. The next page is leased once half of the current one is handed out,
 * so it is ready before the current one runs dry: a lease that takes time never leaves the checks
 * waiting at a page boundary. Before each lease the finished checks are handed to the store
 * (`beforeLease`), so a worker killed mid-pass leaves unwritten at most the pages in hand and the
 * checks still in flight. A page leased ahead is always handed out, even once the pass must
 * stop: its checks then hand each record back unchecked (reconciler.ts), not left leased until
 * the lease expires.
 *
 * A record whose lease has less than the margin left when its turn comes (a page handed out
 * far slower than planned, or leased ahead and reached late) is not handed out: it goes to
 * `expired`, and another worker (or this pass's next page) may lease it once the lease is over.
 * Its expiry is known without asking the store: the store times a lease from the moment it runs
 * the lease, never before it was asked for, so the instant just before asking plus `leaseMs` is
 * never later than the real expiry (one clock; between machines, their skew eats into the margin).
 */
export class DueRecords {
  readonly #lease: () => Promise<LeasedRecord[]>;
  readonly #limit: number;
  readonly #leaseMs: number;
  readonly #marginMs: number;
  readonly #stopped: () => boolean;
  readonly #beforeLease: () => void;
  readonly #now: () => number;
  readonly #expired: (leased: LeasedRecord) => void;
  #page: LeasedRecord[] = [];
  /** Until this instant the current page's records may still be handed out. */
  #usableUntil = 0;
  #margin = new LeaseMargin(() => 0);
  #next = 0;
  #more = true;
  /** The next page, leased ahead (see the class's comment). */
  #ahead: Promise<Page> | undefined;

  constructor(store: ReferenceStore, options: DueRecordsOptions) {
    const { stopped, beforeLease, now, marginMs, expired, ...lease } = options;
    this.#lease = () => store.leaseDue(lease);
    this.#limit = lease.limit;
    this.#leaseMs = lease.leaseMs;
    this.#marginMs = marginMs;
    this.#stopped = stopped;
    this.#beforeLease = beforeLease;
    this.#now = now;
    this.#expired = expired;
  }

  /** The next leased record, or undefined when the pass has nothing more (or must stop). */
  async take(): Promise<DueRecord | undefined> {
    for (;;) {
      if (this.#next < this.#page.length) {
        if (this.#next * 2 >= this.#page.length) this.#leaseAhead();
        const leased = this.#page[this.#next++] as LeasedRecord;
        if (this.#now() < this.#usableUntil) return { ...leased, margin: this.#margin };
        this.#expired(leased);
        continue;
      }
      if (!this.#ahead) {
        // The first page (or a page emptied before half of it was handed out: never, as
        // #leaseAhead runs at its middle, unless the pass is stopping).
        this.#leaseAhead();
        if (!this.#ahead) return undefined;
      }
      // One lease at a time: every check waiting for a record waits for the same page.
      const ahead = this.#ahead;
      const page = await ahead;
      if (this.#ahead === ahead) {
        this.#ahead = undefined;
        this.#page = page.records;
        const usableUntil = page.expiresAt - this.#marginMs;
        this.#usableUntil = usableUntil;
        this.#margin = new LeaseMargin(() => usableUntil);
        this.#next = 0;
      }
    }
  }

  /** Leases the next page now, unless one is on its way, the last was short, or the pass stops. */
  #leaseAhead(): void {
    if (this.#ahead || !this.#more || this.#stopped()) return;
    this.#beforeLease();
    const expiresAt = this.#now() + this.#leaseMs;
    const ahead = this.#lease().then((records): Page => {
      // A short page is the last: what is left is due later (or leased by another worker).
      if (records.length < this.#limit) this.#more = false;
      return { records, expiresAt };
    });
    // Awaited by the take() that needs it; until then its failure must not go unhandled.
    ahead.catch(() => {});
    this.#ahead = ahead;
  }
}
