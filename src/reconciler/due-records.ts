import type { ReferenceStore } from '../references/index.js';
import type { LeaseDueOptions, LeasedRecord } from '../references/schedule/types.js';
import { LeaseMargin } from './lease-margin.js';

export interface DueRecordsOptions extends LeaseDueOptions {
  stopped: () => boolean;
  now: () => number;
  /** A record is handed out only while its lease has at least this long to run. */
  marginMs: number;
  expired: (leased: LeasedRecord) => Promise<void> | void;
}

/** A leased record with its page's lease margin: from `margin.until` nothing is sent for it. */
export type DueRecord = LeasedRecord & { readonly margin: LeaseMargin };

/** A quarter of the lease: a check started later could outlive it and be pulled twice. */
export function leaseMarginMs(leaseMs: number): number {
  return Math.floor(leaseMs / 4);
}

/**
 * One pass's records, leased a keyset page at a time; one past its margin goes to `expired`.
 * The instant before asking plus `leaseMs` is never later than the store's own expiry.
 */
export class DueRecords {
  readonly #store: Pick<ReferenceStore, 'schedule'>;
  readonly #options: DueRecordsOptions;
  #page: LeasedRecord[] = [];
  #next = 0;
  #margin = new LeaseMargin(() => 0);
  #more = true;
  // One lease at a time: every waiting check waits for the same page.
  #leasing: Promise<void> | undefined;

  constructor(store: Pick<ReferenceStore, 'schedule'>, options: DueRecordsOptions) {
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
    const records = await this.#store.schedule.lease(lease);
    // A short page is the last: what is left is due later (or leased by another worker).
    if (records.length < lease.limit) this.#more = false;
    this.#page = records;
    this.#next = 0;
    this.#margin = new LeaseMargin(() => usableUntil);
  }
}
