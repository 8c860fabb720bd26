import type { ReferenceStore } from '../references/index.js';
import type { LeaseDueOptions, LeasedRecord } from '../references/schedule/types.js';

/**
 * The records of one pass, leased from the store a keyset page at a time and handed out one by
 * one to the pass's checks. The next page is leased once half of the current one is handed out,
 * so it is ready before the current one runs dry: a lease that takes time — on a SQLite file it
 * runs on the schedule thread, and the event loop does not wait in it — never leaves the checks
 * waiting at a page boundary. Before each lease the finished checks are handed to the store
 * (`beforeLease`), so a worker killed mid-pass leaves unwritten at most the pages in hand and the
 * checks still in flight. A page leased ahead is always handed out, even once the pass must
 * stop: its checks then hand each record back unchecked (reconciler.ts), not left leased until
 * the lease expires.
 */
export class DueRecords {
  readonly #lease: () => Promise<LeasedRecord[]>;
  readonly #limit: number;
  readonly #stopped: () => boolean;
  readonly #beforeLease: () => void;
  #page: LeasedRecord[] = [];
  #next = 0;
  #more = true;
  /** The next page, leased ahead (see the class's comment). */
  #ahead: Promise<LeasedRecord[]> | undefined;

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
      if (this.#next < this.#page.length) {
        if (this.#next * 2 >= this.#page.length) this.#leaseAhead();
        return this.#page[this.#next++];
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
        this.#page = page;
        this.#next = 0;
      }
    }
  }

  /** Leases the next page now, unless one is on its way, the last was short, or the pass stops. */
  #leaseAhead(): void {
    if (this.#ahead || !this.#more || this.#stopped()) return;
    this.#beforeLease();
    const ahead = this.#lease().then((page) => {
      // A short page is the last: what is left is due later (or leased by another worker).
      if (page.length < this.#limit) this.#more = false;
      return page;
    });
    // Awaited by the take() that needs it; until then its failure must not go unhandled.
    ahead.catch(() => {});
    this.#ahead = ahead;
  }
}
