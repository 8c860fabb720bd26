import type { ReferenceStore } from '../references/index.js';
import type { LeaseDueOptions, LeasedRecord } from '../references/schedule/types.js';
import { LeaseMargin } from './lease-margin.js';

/** What {@link DueRecords} takes besides the lease's own options. */
export interface DueRecordsOptions extends LeaseDueOptions {
  /** True once the pass must lease nothing more (close(), an aborted signal). */
  stopped: () => boolean;
  /** The reconciler's clock in ms: the one the store times its leases by. */
  now: () => number;
  /** A record is handed out only while its lease has at least this long to run. */
  marginMs: number;
  /** A record whose lease ran (nearly) out before a check could take it: not to be checked. */
  expired: (leased: LeasedRecord) => Promise<void> | void;
}

/** A leased record with its page's lease margin: from `margin.until` nothing is sent for it. */
export type DueRecord = LeasedRecord & { readonly margin: LeaseMargin };

/**
 * How long before its lease expires a record is no longer handed to a check: a quarter of the
 * lease. A check started later could still be waiting when the lease runs out, and the worker
 * that leases the record next would pull it a second time.
 */
export function leaseMarginMs(leaseMs: number): number {
  return Math.floor(leaseMs / 4);
}

/**
 * The records of one pass, leased from the store a keyset page at a time and handed out one by
 * one to the pass's checks. A record whose lease has less than the margin left when its turn
 * comes goes to `expired` instead. Its expiry needs no store round trip: the store times a lease
 * from when it runs it, so the instant just before asking plus `leaseMs` is never late.
 */
export class DueRecords {
  readonly #store: ReferenceStore;
  readonly #options: DueRecordsOptions;
  #page: LeasedRecord[] = [];
  #next = 0;
  #margin = new LeaseMargin(() => 0);
  #more = true;
  /** One lease at a time: every check waiting for a record waits for the same page. */
  #leasing: Promise<void> | undefined;

  constructor(store: ReferenceStore, options: DueRecordsOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** The next leased record, or undefined when the pass has nothing more (or must stop). */
  async take(): Promise<DueRecord | undefined> {
    for (;;) {
      while (this.#next < this.#page.length) {
        const leased = this.#page[this.#next++] as LeasedRecord;
        if (this.#options.now() < this.#margin.until) return { ...leased, margin: this.#margin };
        await this.#options.expired(leased);
      }
      if (!this.#more || this.#options.stopped()) return undefined;
      this.#leasing ??= this.#leasePage().finally(() => {
        this.#leasing = undefined;
      });
      await this.#leasing;
    }
  }

  async #leasePage(): Promise<void> {
    const { stopped, now, marginMs, expired, ...lease } = this.#options;
    const usableUntil = now() + lease.leaseMs - marginMs;
    const records = await this.#store.leaseDue(lease);
    // A short page is the last: what is left is due later (or leased by another worker).
    if (records.length < lease.limit) this.#more = false;
    this.#page = records;
    this.#next = 0;
    this.#margin = new LeaseMargin(() => usableUntil);
  }
}
