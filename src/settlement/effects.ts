import { EventEmitter } from 'eventemitter3';
import type { EffectKind } from '../references/effects.js';
import { effectKindNames, effectKindOf, effectKinds } from '../references/effects.js';
import type { TransactionRecord } from '../references/index.js';
import type { ReviewVerdict } from '../references/review.js';
import type { ReferenceStore } from '../references/types.js';

export interface EffectContext {
  /** Stable for the record: key your own writes on it, since a handler runs at least once. */
  effectKey: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
}

/** Money in. */
export type CollectionRecord = TransactionRecord & { product: 'collection' };
/** Money out: a payout or an airtime purchase; `record.product` narrows it. */
export type MoneyOutRecord =
  | (TransactionRecord & { product: 'disbursement'; flow: 'disbursement' })
  | (TransactionRecord & { product: 'airtime'; flow: 'airtime_purchase' });

/**
 * The merchant's code run when a transaction settles, whichever path settled it. A settled
 * airtime recharge (a top-up of the merchant's own wallet) runs none: it is an event only.
 */
export interface SettlementHandlers {
  /** A collection is proven paid (spec rule 5): credit the order. */
  onPaid?: (record: CollectionRecord, context: EffectContext) => unknown;
  /** The platform says a collection failed: release the order. */
  onFailed?: (record: CollectionRecord, context: EffectContext) => unknown;
  /** A payout or an airtime purchase went out. */
  onSent?: (record: MoneyOutRecord, context: EffectContext) => unknown;
  /** A payout or an airtime purchase failed: no money went out. */
  onNotSent?: (record: MoneyOutRecord, context: EffectContext) => unknown;
  /** Any product: a person must decide (`record.review` says why); `resolveReview()` settles it. */
  onReview?: (record: TransactionRecord, verdict: ReviewVerdict, context: EffectContext) => unknown;
}

export type SettlementHandler<N extends keyof SettlementHandlers> = NonNullable<
  SettlementHandlers[N]
>;
/** As options give them: one left out may be `undefined`. */
type GivenHandlers = { [Name in keyof SettlementHandlers]?: SettlementHandlers[Name] | undefined };

export interface EffectRunnerOptions {
  /** How long a run is exclusive: keep handlers shorter. @default 60_000 */
  leaseMs?: number;
  /** Delays before each retry of a failed handler, in ms; the last repeats. @default 1 s, 5 s, 30 s, 2 min, 10 min */
  retryDelaysMs?: readonly number[];
  /** Runs before the effect is dead-lettered (`store.effects.list('dead')`). @default 8 */
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
  readonly #store: Pick<ReferenceStore, 'effects'>;
  readonly #handlers: GivenHandlers;
  /** The kinds this runner claims: those it has a handler for; the rest stay due for another. */
  readonly handles: readonly EffectKind[];
  readonly #leaseMs: number;
  readonly #retryDelays: readonly number[];
  readonly #maxAttempts: number;
  readonly #now: () => Date;

  constructor(
    store: Pick<ReferenceStore, 'effects'>,
    handlers: GivenHandlers,
    options: EffectRunnerOptions = {},
  ) {
    super();
    this.#store = store;
    this.#handlers = handlers;
    this.handles = effectKindNames.filter(
      (kind) => typeof handlers[effectKinds[kind].handler] === 'function',
    );
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#retryDelays = options.retryDelaysMs?.length
      ? options.retryDelaysMs
      : DEFAULT_EFFECT_RETRY_DELAYS;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.#now = options.now ?? (() => new Date());
  }

  /** Runs one record's due effect right after its transition; `false` when nothing was run. */
  async runFor(merchantReference: string): Promise<boolean> {
    const asked = this.#now().getTime();
    const claims = await this.#claim({ merchantReference });
    for (const claim of claims) await this.#run(claim.record, claim.token, asked);
    return claims.length > 0;
  }

  /** Claims and runs every due effect (up to `limit`), e.g. those a crashed process left. */
  async drain(options: { limit?: number } = {}): Promise<number> {
    const asked = this.#now().getTime();
    const claims = await this.#claim({ limit: options.limit ?? 50 });
    await Promise.all(claims.map((claim) => this.#run(claim.record, claim.token, asked)));
    return claims.length;
  }

  async #claim(options: { limit?: number; merchantReference?: string }) {
    if (this.handles.length === 0) return [];
    return this.#store.effects.claim({ ...options, leaseMs: this.#leaseMs, handles: this.handles });
  }

  /** `asked`: when the claim was asked for. Its lease began then at the earliest. */
  async #run(record: TransactionRecord, token: string, asked: number): Promise<void> {
    // The store dates the lease when it is asked, and may then wait for its write lock (a busy
    // SQLite file), as this process may wait for its event loop: a claim can arrive with its
    // lease nearly or wholly spent, when another process may take the effect over. A handler
    // never starts on the last quarter of its lease; the effect runs after the lease expires.
    const left = asked + this.#leaseMs - this.#now().getTime();
    if (left < this.#leaseMs / 4) return;
    const kind = effectKindOf(record);
    if (!kind) {
      throw new Error(
        `pesakit: the store returned a claimed effect for ${record.merchantReference} ` +
          `(${record.product}, ${record.status}), which has none. This is a bug in the store.`,
      );
    }
    const context: EffectContext = {
      effectKey: record.merchantReference,
      attempt: record.effect.attempts,
    };
    try {
      const handled =
        kind === 'review'
          ? record.review && this.#handlers.onReview?.(record, record.review, context)
          : // The claim matched the record to this handler's kind (product and status).
            (this.#handlers[effectKinds[kind].handler] as SettlementHandler<'onSent'>)(
              record as MoneyOutRecord,
              context,
            );
      // A hung handler must not hold its caller for ever; past its lease another process may run
      // it anyway, so it is recorded failed while the lease still holds (after it, fenced).
      if (!(await settlesWithin(handled, Math.max(1, Math.floor(left - this.#leaseMs * 0.1))))) {
        throw new Error(
          `The ${kind} handler of ${record.merchantReference} did not finish within its lease ` +
            `(${this.#leaseMs} ms); it will be run again. Keep handlers shorter than the lease.`,
        );
      }
    } catch (error) {
      await this.#failed(record, token, kind, error, asked);
      return;
    }
    const completed = () => this.#store.effects.complete(record.merchantReference, token);
    if (await this.#whileLeased(completed, asked)) {
      this.emit('effect', {
        merchantReference: record.merchantReference,
        kind,
        attempt: context.attempt,
      });
    }
  }

  /**
   * The handler ran; a store write that fails now (a database restarting) is tried again while
   * the lease holds, so that a run is not repeated only because its outcome could not be written.
   */
  async #whileLeased(write: () => Promise<boolean>, asked: number): Promise<boolean> {
    // Ten tries, 0.1 s apart doubling to 2 s: about 11 s, longer than a database's restart.
    for (let attempt = 1, delay = 100; ; attempt += 1, delay = Math.min(delay * 2, 2000)) {
      try {
        return await write();
      } catch (error) {
        const leaseEnds = asked + this.#leaseMs;
        if (attempt === 10 || this.#now().getTime() + delay >= leaseEnds) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async #failed(
    record: TransactionRecord,
    token: string,
    kind: EffectKind,
    error: unknown,
    asked: number,
  ) {
    const { merchantReference } = record;
    const { attempts } = record.effect;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const delay = this.#retryDelays[Math.min(attempts - 1, this.#retryDelays.length - 1)] ?? 1000;
    // After the last attempt, dead: not run again automatically.
    const retryAt = attempts >= this.#maxAttempts ? null : new Date(this.#now().getTime() + delay);
    const failed = () =>
      this.#store.effects.fail(merchantReference, token, { error: message, retryAt });
    if (!(await this.#whileLeased(failed, asked))) {
      return;
    }
    const event = { merchantReference, kind, error };
    if (retryAt) this.emit('effect_failed', { ...event, attempt: attempts, retryAt });
    else this.emit('dead', { ...event, attempts });
  }
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
