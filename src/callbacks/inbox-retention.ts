import { ConfigurationError } from '../errors/configuration-error.js';
import { type CallbackInbox, inboxPruneBatchSize } from '../references/inbox/types.js';

/**
 * How long the receiver keeps finished inbox entries, and how often it deletes older ones
 * (`inboxRetention` of `createCallbackReceiver()`; `false` turns it off).
 */
export interface InboxRetentionOptions {
  /**
   * How long an entry is kept after it finished (`done` or `dead`, by `processedAt`). Within this
   * window the same callback delivered again is a counted duplicate; after it, a new entry that
   * is processed again — never credited twice (docs/callbacks.md, "Retention").
   * @default 604800000 (7 days, as pg-boss keeps finished jobs)
   */
  keepMs?: number;
  /** How often this receiver prunes, from `start()` until `close()`. @default 3600000 (1 hour) */
  everyMs?: number;
}

export interface ResolvedInboxRetention {
  keepMs: number;
  everyMs: number;
}

/** The longest a Node timer can wait; a longer one fires after 1 ms (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** 100 years: a longer retention is "never", and would not make a valid cut-off Date. */
const MAX_KEEP_MS = 100 * 365.25 * 24 * 3_600_000;

export function resolveInboxRetention(value: unknown): ResolvedInboxRetention | false {
  if (value === false) return false;
  const given = value ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new ConfigurationError(
      'inboxRetention',
      `createCallbackReceiver: inboxRetention must be { keepMs?, everyMs? } or false (got ${String(value)}).`,
    );
  }
  const { keepMs, everyMs } = given as InboxRetentionOptions;
  return {
    keepMs: wholeMs('keepMs', keepMs, 7 * 24 * 3_600_000, MAX_KEEP_MS),
    everyMs: wholeMs('everyMs', everyMs, 3_600_000, MAX_TIMER_MS),
  };
}

function wholeMs(name: string, value: unknown, fallback: number, max: number): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isInteger(chosen) || chosen <= 0 || chosen > max) {
    throw new ConfigurationError(
      `inboxRetention.${name}`,
      `createCallbackReceiver: inboxRetention.${name} must be a positive whole number of ms of at most ${max} (got ${String(value)}).`,
    );
  }
  return chosen;
}

/**
 * The receiver's pruning schedule: a first prune right after `start()`, then one `everyMs` after
 * the previous one ended — a chain of timeouts, so a slow prune never overlaps the next. Each
 * prune deletes batch after batch until one comes back short, yielding to the event loop in
 * between and stopping between batches when `close()` is called. Failures go to `onError` (the
 * receiver's `error` event) and the schedule goes on. Several receivers on one store may all
 * prune: a row is deleted once, and PostgreSQL batches skip rows another prune holds.
 */
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
