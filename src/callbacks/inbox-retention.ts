import { type CallbackInbox, inboxPruneBatchSize } from '../references/inbox/types.js';
import type { ResolvedInboxRetention } from './options.js';

/** Prunes finished entries at `start()`, then `everyMs` after each prune ended, in batches. */
export class InboxRetention {
  readonly #inbox: CallbackInbox;
  readonly #now: () => Date;
  readonly #options: ResolvedInboxRetention;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  constructor(dependencies: {
    inbox: CallbackInbox;
    now: () => Date;
    options: ResolvedInboxRetention;
    onError: (error: unknown) => void;
  }) {
    this.#inbox = dependencies.inbox;
    this.#now = dependencies.now;
    this.#options = dependencies.options;
    this.#onError = dependencies.onError;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops the schedule; a prune in progress ends after its current batch. */
  async close(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#prune()
        .catch((error: unknown) => this.#onError(error))
        .finally(() => {
          this.#running = undefined;
          this.#schedule(this.#options.everyMs);
        });
    }, delayMs);
    this.#timer.unref?.();
  }

  async #prune(): Promise<void> {
    const olderThan = new Date(this.#now().getTime() - this.#options.keepMs);
    for (;;) {
      const { deleted } = await this.#inbox.prune({ olderThan, limit: inboxPruneBatchSize });
      if (deleted < inboxPruneBatchSize || this.#stopped) return;
      // A memory inbox answers without I/O: let callbacks be received between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
