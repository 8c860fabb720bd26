import PQueue from 'p-queue';
import type { CallbackInbox, InboxClaim } from '../references/inbox/types.js';

export interface InboxWorkerOptions {
  inbox: CallbackInbox;
  handle(claim: InboxClaim): Promise<void>;
  concurrency: number;
  leaseMs: number;
  pollIntervalMs: number;
  onError(error: unknown): void;
}

/** Claims only as many due entries as it has free slots, so no lease waits in this process. */
export class InboxWorker {
  readonly #options: InboxWorkerOptions;
  readonly #queue: PQueue;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #claiming: Promise<unknown> | undefined;
  #claimed = 0;

  constructor(options: InboxWorkerOptions) {
    this.#options = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  nudge(): void {
    this.#wake?.();
  }

  get claimed(): number {
    return this.#claimed;
  }

  get idle(): boolean {
    return this.#claiming === undefined && this.#queue.size === 0 && this.#queue.pending === 0;
  }

  /** Resolves when {@link idle} (the entries it claims meanwhile are waited for too). */
  async onIdle(): Promise<void> {
    while (!this.idle) {
      await this.#claiming?.catch(() => undefined);
      await this.#queue.onIdle();
    }
  }

  async close(): Promise<void> {
    this.#running = false;
    this.nudge();
    await this.#loop;
    await this.#queue.onIdle();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const free = this.#options.concurrency - this.#queue.size - this.#queue.pending;
      let claimed = 0;
      if (free > 0) {
        try {
          const claiming = this.#options.inbox.claim({
            leaseMs: this.#options.leaseMs,
            limit: free,
          });
          this.#claiming = claiming;
          const claims = await claiming;
          claimed = claims.length;
          this.#claimed += claimed;
          for (const claim of claims) {
            void this.#queue.add(() => this.#options.handle(claim)).catch(this.#options.onError);
          }
        } catch (error) {
          this.#options.onError(error);
        } finally {
          // Cleared only after the claims are queued: `idle` never sees them in between.
          this.#claiming = undefined;
        }
      }
      // Every slot busy (or just filled: there may be more due): wait for one to free up.
      if (free <= 0 || claimed === free) {
        await this.#slotFree();
        continue;
      }
      await this.#sleep(this.#options.pollIntervalMs);
    }
  }

  #slotFree(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#queue.off('next', done);
        resolve();
      };
      this.#queue.on('next', done);
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(this.#timer);
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
      this.#timer = setTimeout(done, ms);
    });
  }
}
