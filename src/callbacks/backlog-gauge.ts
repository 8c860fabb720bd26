import type { CallbackInbox } from '../references/inbox/types.js';

/** How often the inbox's backlog is counted for the intake: once a second at most. */
const readEveryMs = 1000;

/**
 * The inbox's unfinished entries (due, processing, scheduled), read at most once a second and
 * shared by every callback meanwhile, so a flood costs one count a second, not one per callback.
 */
export class BacklogGauge {
  readonly #inbox: CallbackInbox;
  #value = 0;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<number> | undefined;

  constructor(inbox: CallbackInbox) {
    this.#inbox = inbox;
  }

  /** The last count, refreshed first when it is older than a second; a failed read keeps the last. */
  unfinished(now: number): Promise<number> {
    if (now - this.#readAt < readEveryMs) return Promise.resolve(this.#value);
    this.#reading ??= this.#inbox
      .backlog()
      .then(({ due, processing, scheduled }) => {
        this.#value = due + processing + scheduled;
        return this.#value;
      })
      .catch(() => this.#value)
      .finally(() => {
        this.#readAt = now;
        this.#reading = undefined;
      });
    return this.#reading;
  }
}
