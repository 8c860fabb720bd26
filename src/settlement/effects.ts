import { EventEmitter } from 'eventemitter3';
import type { EffectOutbox } from '../references/effects.js';
import type { TransactionRecord } from '../references/index.js';
import type { ReviewVerdict } from '../references/review.js';

export interface EffectContext {
  /** Stable for the record: key your own writes on it, since a handler runs at least once. */
  effectKey: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
}

/** The merchant's code run when a transaction settles, whichever path settled it. */
export interface SettlementHandlers {
  /** The payment is proven (spec rule 5): credit the order. */
  onPaid?: (record: TransactionRecord, context: EffectContext) => unknown;
  /** The platform says it failed: release the order. */
  onFailed?: (record: TransactionRecord, context: EffectContext) => unknown;
  /** A person must decide (`record.review` says why); `store.resolve()` settles it later. */
  onReview?: (record: TransactionRecord, verdict: ReviewVerdict, context: EffectContext) => unknown;
}

export type EffectKind = 'paid' | 'failed' | 'review';

export interface EffectRunnerOptions {
  /** How long a run is exclusive: keep handlers shorter. @default 60_000 */
  leaseMs?: number;
  /** Delays before each retry of a failed handler, in ms; the last repeats. @default 1 s, 5 s, 30 s, 2 min, 10 min */
  retryDelaysMs?: readonly number[];
  /** Runs before the effect is dead-lettered (`store.listEffects('dead')`). @default 8 */
  maxAttempts?: number;
  /** The clock for retry times. @default () => new Date() */
  now?: () => Date;
}

export interface EffectRunnerEvents {
  effect: [{ merchantReference: string; kind: EffectKind; attempt: number }];
  /** A handler threw; it runs again at `retryAt`. */
  effect_failed: [
    { merchantReference: string; kind: EffectKind; attempt: number; error: unknown; retryAt: Date },
  ];
  /** A handler kept failing and will not be run again automatically. */
  dead: [{ merchantReference: string; kind: EffectKind; attempts: number; error: unknown }];
}

export const DEFAULT_EFFECT_RETRY_DELAYS: readonly number[] = [
  1000, 5000, 30_000, 120_000, 600_000,
];

/** The settling transition makes the effect due in the same write: **the transition happens
 * exactly once; the handler runs at least once, until it completes** (expired leases are taken). */
export class EffectRunner extends EventEmitter<EffectRunnerEvents> {
  readonly #store: EffectOutbox;
  readonly #handlers: SettlementHandlers;
  readonly #leaseMs: number;
  readonly #retryDelays: readonly number[];
  readonly #maxAttempts: number;
  readonly #now: () => Date;

  constructor(
    store: EffectOutbox,
    handlers: SettlementHandlers,
    options: EffectRunnerOptions = {},
  ) {
    super();
    this.#store = store;
    this.#handlers = handlers;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#retryDelays = options.retryDelaysMs?.length
      ? options.retryDelaysMs
      : DEFAULT_EFFECT_RETRY_DELAYS;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.#now = options.now ?? (() => new Date());
  }

  /** Runs one record's due effect right after its transition; `false` when nothing was run. */
  async runFor(merchantReference: string): Promise<boolean> {
    const claims = await this.#store.claimEffects({ leaseMs: this.#leaseMs, merchantReference });
    for (const claim of claims) await this.#run(claim.record, claim.token);
    return claims.length > 0;
  }

  /** Claims and runs every due effect (up to `limit`), e.g. those a crashed process left. */
  async drain(options: { limit?: number } = {}): Promise<number> {
    const claims = await this.#store.claimEffects({
      leaseMs: this.#leaseMs,
      limit: options.limit ?? 50,
    });
    await Promise.all(claims.map((claim) => this.#run(claim.record, claim.token)));
    return claims.length;
  }

  async #run(record: TransactionRecord, token: string): Promise<void> {
    const kind = kindOf(record);
    const context: EffectContext = {
      effectKey: record.merchantReference,
      attempt: record.effect.attempts,
    };
    try {
      const handled =
        kind === 'paid'
          ? this.#handlers.onPaid?.(record, context)
          : kind === 'failed'
            ? this.#handlers.onFailed?.(record, context)
            : record.review && this.#handlers.onReview?.(record, record.review, context);
      // A hung handler must not hold its caller for ever; past its lease another process may run
      // it anyway, so it is recorded failed while the lease still holds (after it, fenced).
      if (!(await settlesWithin(handled, Math.max(1, Math.floor(this.#leaseMs * 0.9))))) {
        throw new Error(
          `The ${kind} handler of ${record.merchantReference} did not finish within its lease ` +
            `(${this.#leaseMs} ms); it will be run again. Keep handlers shorter than the lease.`,
        );
      }
    } catch (error) {
      await this.#failed(record, token, kind, error);
      return;
    }
    if (await this.#store.completeEffect(record.merchantReference, token)) {
      this.emit('effect', {
        merchantReference: record.merchantReference,
        kind,
        attempt: context.attempt,
      });
    }
  }

  async #failed(
    record: TransactionRecord,
    token: string,
    kind: EffectKind,
    error: unknown,
  ): Promise<void> {
    const attempts = record.effect.attempts;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const merchantReference = record.merchantReference;
    if (attempts >= this.#maxAttempts) {
      if (
        await this.#store.failEffect(merchantReference, token, { error: message, retryAt: null })
      ) {
        this.emit('dead', { merchantReference, kind, attempts, error });
      }
      return;
    }
    const delay = this.#retryDelays[Math.min(attempts - 1, this.#retryDelays.length - 1)] ?? 1000;
    const retryAt = new Date(this.#now().getTime() + delay);
    if (await this.#store.failEffect(merchantReference, token, { error: message, retryAt })) {
      this.emit('effect_failed', {
        merchantReference,
        kind,
        attempt: attempts,
        error,
        retryAt,
      });
    }
  }
}

/** The handler a settled record calls; an effect on an open record is a broken store: throw. */
function kindOf(record: TransactionRecord): EffectKind {
  if (record.status === 'success') return 'paid';
  if (record.status === 'failed') return 'failed';
  if (record.status === 'needs_review') return 'review';
  throw new Error(
    `pesakit: the store returned a claimed effect for ${record.merchantReference}, which is ` +
      `${record.status}; only success, failed and needs_review records have effects. ` +
      'This is a bug in the store implementation.',
  );
}

async function settlesWithin(value: unknown, ms: number): Promise<boolean> {
  if (!(value instanceof Promise)) {
    await value;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    // A rejection after the wait ended is still handled here (race subscribed to it).
    return await Promise.race([value.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
