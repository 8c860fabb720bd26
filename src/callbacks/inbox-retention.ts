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
    const now = this.#now().getTime();
    // Entries that changed nothing go first and sooner: they are what a forger can add.
    await this.#pruneOlderThan(new Date(now - this.#options.orphanKeepMs), evidenceOnlyOutcomes);
    if (this.#stopped) return;
    await this.#pruneOlderThan(new Date(now - this.#options.keepMs), undefined);
  }

  async #pruneOlderThan(olderThan: Date, outcomes: readonly string[] | undefined): Promise<void> {
    for (;;) {
      const { deleted } = await this.#inbox.prune({
        olderThan,
        limit: inboxPruneBatchSize,
        ...(outcomes && { outcomes }),
      });
      if (deleted < inboxPruneBatchSize || this.#stopped) return;
      // A memory inbox answers without I/O: let callbacks be received between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Outcomes of entries that moved no record: no transaction matched (`orphan`), the record was
 * already final or of another account (`not_visible`), or the platform did not confirm the
 * claim. Kept `orphanKeepMs`, not `keepMs`.
 */
export const evidenceOnlyOutcomes: readonly string[] = [
  'orphan',
  'already_final',
  'not_visible',
  'not_confirmed',
  'pending',
];
