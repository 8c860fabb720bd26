import type { DisbursementPayment } from '../schemas/disbursement.js';
import { awaitShared, LeaseMargin, MarginWaiters } from './lease-margin.js';
import type { Platform } from './platform.js';

/** The largest page `getPayments` serves. */
const perPage = 100;

/** What the history fetched so far shows. */
export interface HistoryView {
  /** Every row fetched, deduplicated by txnid. */
  rows: readonly DisbursementPayment[];
  /** True when the pages fetched reach back to (or past) the requested instant, or to the end. */
  covers: boolean;
  /** When the first page was fetched: rows created after it may be missing. */
  fetchedAt: Date;
  /** Pages fetched this pass. */
  pages: number;
}

/**
 * The payout history, walked once per pass for every due payout: pages from the newest until
 * older than the oldest instant any due record asked for; no page is fetched twice in a pass.
 * Payouts made meanwhile push rows to later pages, so rows are deduplicated by txnid, never
 * matched by position. A page is pulled for every check waiting on the walk, under the latest
 * of their lease margins (awaitShared).
 */
export class PayoutHistory {
  readonly #platform: Platform;
  readonly #now: () => Date;
  readonly #rows = new Map<string, DisbursementPayment>();
  #fetchedAt: Date | undefined;
  #nextPage = 1;
  #lastPage = Number.POSITIVE_INFINITY;
  #oldest = Number.POSITIVE_INFINITY;
  #pages = 0;
  /** One walk at a time: concurrent checks wait for the same pages instead of refetching. */
  #walking: Promise<unknown> = Promise.resolve();
  /** The checks waiting for the walk, by when their lease margin runs out. */
  readonly #waiters = new MarginWaiters();

  constructor(platform: Platform, now: () => Date) {
    this.#platform = platform;
    this.#now = now;
  }

  /** The history back to `since`, fetching missing pages; past `usableUntil`, LeaseMarginSpent. */
  covering(since: Date, usableUntil: number = Number.POSITIVE_INFINITY): Promise<HistoryView> {
    return awaitShared(this.#waiters, usableUntil, this.#nowMs, () => {
      const walk = this.#walking.then(() => this.#extend(since.getTime()));
      this.#walking = walk.catch(() => {});
      return walk;
    });
  }

  readonly #nowMs = (): number => this.#now().getTime();

  async #extend(since: number): Promise<HistoryView> {
    while (this.#oldest >= since && this.#nextPage <= this.#lastPage) {
      this.#fetchedAt ??= this.#now();
      const margin = new LeaseMargin(() => this.#waiters.latest());
      const page = await this.#platform.payouts(this.#nextPage, perPage, margin);
      this.#pages += 1;
      this.#lastPage = page.lastPage;
      this.#nextPage = page.currentPage + 1;
      for (const row of page.data) {
        this.#rows.set(row.txnid, row);
        const created = Date.parse(row.created_at);
        if (Number.isFinite(created)) this.#oldest = Math.min(this.#oldest, created);
      }
      if (page.data.length === 0) break;
    }
    return {
      rows: [...this.#rows.values()],
      covers: this.#oldest < since || this.#nextPage > this.#lastPage,
      fetchedAt: this.#fetchedAt ?? this.#now(),
      pages: this.#pages,
    };
  }
}
