import type { DisbursementHistoryRow } from '../schemas/disbursement.js';
import { awaitShared, LeaseMargin, MarginWaiters } from './lease-margin.js';
import type { Platform } from './platform.js';

/** The largest page `getPayments` serves. */
const perPage = 100;

/** The history fetched so far: `covers` when it reaches back to the instant asked, or the end. */
export interface HistoryView {
  rows: readonly DisbursementHistoryRow[];
  covers: boolean;
  /** When the first page was fetched: rows created after it may be missing. */
  fetchedAt: Date;
  pages: number;
}

/**
 * The payout history, walked once per pass from the newest page back to the oldest instant asked.
 * New payouts shift rows to later pages, so rows are deduplicated by txnid.
 */
export class PayoutHistory {
  readonly #platform: Pick<Platform, 'payouts'>;
  readonly #now: () => Date;
  readonly #rows = new Map<string, DisbursementHistoryRow>();
  #fetchedAt: Date | undefined;
  #nextPage = 1;
  #lastPage = Number.POSITIVE_INFINITY;
  #oldest = Number.POSITIVE_INFINITY;
  #pages = 0;
  // One walk at a time: concurrent checks wait for the same pages.
  #walking: Promise<unknown> = Promise.resolve();
  readonly #waiters = new MarginWaiters();

  constructor(platform: Pick<Platform, 'payouts'>, now: () => Date) {
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
        const created = row.created_at === undefined ? Number.NaN : Date.parse(row.created_at);
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
