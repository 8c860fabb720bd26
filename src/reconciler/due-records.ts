import type { ReferenceStore } from '../references/index.js';
import type { LeaseDueOptions, LeasedRecord } from '../references/schedule/types.js';

/**
 * The records of one pass, leased from the store a keyset page at a time and handed out one by
 * one to the pass's checks. The next page is leased as soon as the current one is handed out —
 * while its last checks are still waiting for the platform — so the checks in flight never
 * drain to zero at a page boundary. Before each lease the finished checks are handed to the
 * store (`beforeLease`), so a worker killed mid-pass leaves unwritten at most the page in hand
 * and the checks still in flight from the one before.
 */
export class DueRecords {
  readonly #lease: () => Promise<LeasedRecord[]>;
  readonly #limit: number;
  readonly #stopped: () => boolean;
  readonly #beforeLease: () => void;
  #page: LeasedRecord[] = [];
  #next = 0;
  #more = true;
  #leasing: Promise<void> | undefined;

  constructor(
    store: ReferenceStore,
    options: LeaseDueOptions & {
      /** True once the pass must lease nothing more (close(), an aborted signal). */
      stopped: () => boolean;
      beforeLease: () => void;
    },
  ) {
    const { stopped, beforeLease, ...lease } = options;
    this.#lease = () => store.leaseDue(lease);
    this.#limit = lease.limit;
    this.#stopped = stopped;
    this.#beforeLease = beforeLease;
  }

  /** The next leased record, or undefined when the pass has nothing more (or must stop). */
  async take(): Promise<LeasedRecord | undefined> {
    for (;;) {
      if (this.#next < this.#page.length) return this.#page[this.#next++];
      if (!this.#more || this.#stopped()) return undefined;
      // One lease at a time: every check waiting for a record waits for the same page.
      this.#leasing ??= this.#leasePage().finally(() => {
        this.#leasing = undefined;
      });
      await this.#leasing;
    }
  }

  async #leasePage(): Promise<void> {
    this.#beforeLease();
    const page = await this.#lease();
    this.#page = page;
    this.#next = 0;
    // A short page is the last: what is left is due later (or leased by another worker).
    if (page.length < this.#limit) this.#more = false;
  }
}
