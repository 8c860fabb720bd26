import type { ReferenceStore } from '../references/index.js';
import type { LeaseRelease } from '../references/schedule/types.js';

/** How releases are grouped into one store write. */
export interface ReleaseQueueOptions {
  /** A batch is written once this many releases wait. */
  maxBatch: number;
  /** …or this long after the first of them was queued. */
  maxDelayMs: number;
  /** A write that failed: the leases expire by themselves, the records are only checked late. */
  onError: (error: unknown) => void;
}

/**
 * Group commit for the end of each check. Writing the check (its count, observation, next due
 * time) and ending the lease one record at a time cost a transaction — and on SQLite a commit
 * to disk — per record, far more than the status pull itself. Here the checks hand their
 * release over and move on; the releases are written together through `store.releaseLeases`
 * (one transaction per batch), one batch at a time.
 *
 * A release waits at most `maxDelayMs`; the pass calls {@link flush} at the end of each page
 * and before it resolves, so nothing is left unwritten once `runOnce()` returns. Until a
 * release is written its record stays leased to this worker (no other worker can take it), so
 * the delay changes nothing but when the next check becomes possible. A process killed before
 * the write loses at most these releases: their leases expire and the records are checked
 * again — the same as a kill between a pull and its write, never a wrong final state (final
 * states are written by the check itself, fenced, not here).
 */
export class ReleaseQueue {
  readonly #store: ReferenceStore;
  readonly #options: ReleaseQueueOptions;
  #waiting: LeaseRelease[] = [];
  readonly #waitingReferences = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(store: ReferenceStore, options: ReleaseQueueOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** Queues one release; it is written with the next batch. */
  add(release: LeaseRelease): void {
    // One batch ends a lease once: a second release of the same record goes in the next.
    if (this.#waitingReferences.has(release.merchantReference)) void this.flush();
    this.#waiting.push(release);
    this.#waitingReferences.add(release.merchantReference);
    if (this.#waiting.length >= this.#options.maxBatch) {
      void this.flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#options.maxDelayMs);
      this.#timer.unref?.();
    }
  }

  /** Writes everything queued so far; resolves once it is written (or reported as an error). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#waiting;
    if (batch.length === 0) return this.#writing;
    this.#waiting = [];
    this.#waitingReferences.clear();
    this.#writing = this.#writing.then(() => this.#write(batch));
    return this.#writing;
  }

  async #write(batch: LeaseRelease[]): Promise<void> {
    try {
      await this.#store.releaseLeases(batch);
    } catch (batchError) {
      // One release the store refused must not cost the others theirs: write them one by one.
      if (batch.length === 1) {
        this.#options.onError(batchError);
        return;
      }
      for (const { merchantReference, token, ...options } of batch) {
        try {
          await this.#store.releaseLease(merchantReference, token, options);
        } catch (error) {
          this.#options.onError(error);
        }
      }
    }
  }
}
