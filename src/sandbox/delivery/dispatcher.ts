import { randomUUID } from 'node:crypto';
import type { ChaosFault } from '../chaos/faults.js';
import { CONTROL_URL_MESSAGE, DELIVERY_MARK_HEADER, isControlUrl } from '../http/control-path.js';
import { type LogPage, PagedLog } from '../state/paged-log.js';
import type { FaultBoard } from './faults.js';
import type { CallbackDelivery, DeliveryOutcome, DeliveryRecord } from './record.js';

export type { CallbackDelivery, DeliveryOutcome, DeliveryRecord } from './record.js';

/** Delays before each retry, in ms: five attempts over about 2.6 minutes (the spec shows none). */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [1000, 5000, 30_000, 120_000];

export interface CallbackDispatcherOptions {
  /** Retry delays in ms; attempts = `schedule.length + 1`. @default DEFAULT_RETRY_SCHEDULE */
  schedule?: readonly number[];
  faults: FaultBoard;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Per-attempt timeout; a timeout counts as a failed attempt. @default 10_000 */
  timeoutMs?: number;
  /** @default the system clock */
  clock?: { now(): Date };
  /** How long `reorder` holds a batch when no `delayMs` is set. @default 1000 */
  reorderWindowMs?: number;
  /** Records kept in the log; the oldest go first. @default 100_000 */
  logLimit?: number;
  /** Chaos mode's draw for one delivery (dropped, duplicated, reordered, delayed), if any. */
  chaos?: { draw(delivery: CallbackDelivery): ChaosFault | undefined; delayMs: number };
}

interface Job extends CallbackDelivery {
  id: string;
  body: string;
}

const isHttpUrl = (value: string) =>
  URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/** Pushes callbacks at least once: non-2xx retried, then `failed`; never to the control API. */
export class CallbackDispatcher {
  readonly #options: Required<Omit<CallbackDispatcherOptions, 'chaos'>>;
  readonly #chaos: CallbackDispatcherOptions['chaos'];

  #log: PagedLog<DeliveryRecord>;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #inFlight = new Set<AbortController>();
  #held: Job[] = [];
  #outstanding = 0;
  #idleWaiters: Array<() => void> = [];
  // Bumped by reset(): work started before it must not touch the new state.
  #generation = 0;
  #closed = false;

  constructor(options: CallbackDispatcherOptions) {
    this.#options = {
      schedule: DEFAULT_RETRY_SCHEDULE,
      fetch: globalThis.fetch,
      timeoutMs: 10_000,
      clock: { now: () => new Date() },
      reorderWindowMs: 1000,
      logLimit: 100_000,
      ...options,
    };
    this.#chaos = options.chaos;
    this.#log = new PagedLog(this.#options.logLimit);
  }

  /** Queues one callback; the outcome shows in {@link log}. */
  enqueue(delivery: CallbackDelivery): void {
    if (this.#closed) return;
    const id = randomUUID();
    const unsent = { id, ...delivery, attempt: 0 };
    let body: string | undefined;
    try {
      body = JSON.stringify(delivery.payload) ?? 'null';
    } catch {}
    // Never into the sandbox's own control API, whatever a callback_url says (SSRF).
    const error = !isHttpUrl(delivery.url)
      ? 'Only http and https URLs are called.'
      : isControlUrl(delivery.url)
        ? CONTROL_URL_MESSAGE
        : body === undefined
          ? 'The payload is not serialisable.'
          : undefined;
    // Chaos draws once per callback, beside the counted faults (which still count down).
    const drawn = error === undefined ? this.#chaos?.draw(delivery) : undefined;
    if (error !== undefined || drawn === 'callback_drop' || this.#options.faults.takeDrop()) {
      this.#record(
        error === undefined
          ? { ...unsent, outcome: 'dropped' }
          : { ...unsent, outcome: 'failed', error },
      );
      return;
    }
    const faults = this.#options.faults.settings.callbacks ?? {};
    const count = Math.max(faults.duplicate ?? 1, drawn === 'callback_duplicate' ? 2 : 1);
    const copies = Array.from({ length: count }, (_, index) => ({
      ...delivery,
      id: index === 0 ? id : randomUUID(),
      body: body ?? 'null',
    }));
    this.#outstanding += copies.length;
    const generation = this.#generation;
    const start = () => {
      for (const job of copies) void this.#attempt(job, 1, generation);
    };
    const delayMs =
      drawn === 'callback_delay' ? (this.#chaos?.delayMs ?? 0) : (faults.delayMs ?? 0);
    if (faults.reorder === true || drawn === 'callback_reorder') {
      const armed = this.#held.length > 0;
      this.#held.push(...copies);
      if (!armed)
        this.#later(delayMs || this.#options.reorderWindowMs, () => this.#release(generation));
    } else if (delayMs > 0) {
      this.#later(delayMs, start);
    } else {
      start();
    }
  }

  /** Every attempt so far, oldest first (a copy; at most `logLimit` records). */
  log(): DeliveryRecord[] {
    return this.#log.all();
  }

  /** One page of the log: records with `seq` above `after`, and whether any were dropped. */
  page(after?: number, limit?: number): LogPage<DeliveryRecord> {
    return this.#log.page(after, limit);
  }

  /** Resolves when nothing is queued, held, waiting to retry or in flight. */
  idle(): Promise<void> {
    if (this.#outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  reset(): void {
    this.#cancelAll();
    this.#log = new PagedLog(this.#options.logLimit);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#cancelAll();
  }

  #cancelAll(): void {
    this.#generation += 1;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort(new Error('cancelled'));
    this.#held = [];
    this.#outstanding = 0;
    this.#wakeIdleWaiters();
  }

  /** Sends the held batch newest-first, each first attempt finishing before the next starts. */
  async #release(generation: number): Promise<void> {
    const batch = this.#held.reverse();
    this.#held = [];
    for (const job of batch) await this.#attempt(job, 1, generation);
  }

  async #attempt(job: Job, attempt: number, generation: number): Promise<void> {
    if (generation !== this.#generation) return;
    const { status, error, durationMs } = await this.#send(job, attempt);
    const record = {
      ...{ id: job.id, key: job.key, kind: job.kind, url: job.url, payload: job.payload },
      ...{ attempt, durationMs, ...(status === undefined ? {} : { status }) },
    };
    if (generation !== this.#generation) {
      if (this.#closed) {
        this.#record({ ...record, outcome: 'cancelled', error: 'The dispatcher was closed.' });
      }
      return;
    }
    if (error === undefined) {
      this.#record({ ...record, outcome: 'delivered' });
      return this.#settle();
    }
    const nextAttemptInMs = this.#options.schedule[attempt - 1];
    if (nextAttemptInMs === undefined) {
      this.#record({ ...record, outcome: 'failed', error });
      return this.#settle();
    }
    this.#record({ ...record, outcome: 'retrying', error, nextAttemptInMs });
    this.#later(nextAttemptInMs, () => this.#attempt(job, attempt + 1, generation));
  }

  /** POSTs once. Never throws: connection errors, timeouts and cancellation come back as `error`. */
  async #send(
    job: Job,
    attempt: number,
  ): Promise<{ status?: number; error?: string; durationMs: number }> {
    const { timeoutMs } = this.#options;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    const startedAt = performance.now();
    const elapsed = () => Math.round(performance.now() - startedAt);
    try {
      const response = await this.#options.fetch(job.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'pesakit-sandbox',
          'x-pesakit-delivery-id': job.id,
          'x-pesakit-attempt': String(attempt),
          [DELIVERY_MARK_HEADER]: '1',
        },
        body: job.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      const status = response.status;
      await response.body?.cancel().catch(() => undefined);
      if (status >= 200 && status <= 299) return { status, durationMs: elapsed() };
      return { status, error: `The merchant answered HTTP ${status}.`, durationMs: elapsed() };
    } catch (cause) {
      // Undici says "fetch failed" and keeps the reason in `cause`.
      const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
      const reason: unknown = controller.signal.reason;
      const error = !controller.signal.aborted
        ? inner instanceof Error
          ? inner.message
          : String(inner)
        : reason instanceof Error && reason.message === 'timeout'
          ? `No answer within ${timeoutMs} ms.`
          : 'The delivery was cancelled.';
      return { error, durationMs: elapsed() };
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
  }

  #later(ms: number, run: () => unknown): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      // A throw in a delivery must never take the sandbox down.
      void Promise.resolve()
        .then(run)
        .catch(() => undefined);
    }, ms);
    this.#timers.add(timer);
  }

  #record(record: Omit<DeliveryRecord, 'at' | 'seq'> & { outcome: DeliveryOutcome }): void {
    this.#log.append({ ...record, at: this.#options.clock.now().toISOString() });
  }

  #settle(): void {
    this.#outstanding = Math.max(0, this.#outstanding - 1);
    if (this.#outstanding === 0) this.#wakeIdleWaiters();
  }

  #wakeIdleWaiters(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
