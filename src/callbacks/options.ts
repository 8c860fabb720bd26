import { ConfigurationError } from '../errors/configuration-error.js';
import type { TransactionRecord } from '../references/types.js';
import type { EffectContext, ReviewVerdict } from './foundation.js';
import {
  type InboxRetentionOptions,
  type ResolvedInboxRetention,
  resolveInboxRetention,
} from './inbox-retention.js';
import { checkReturnUrls } from './return-urls.js';

/** Where the checkout return sends the browser, by outcome (303). Without them: JSON. */
export interface ReturnUrls {
  paid?: string;
  pending?: string;
  failed?: string;
}

/** Options of `pesakit.createCallbackReceiver()`. */
export interface CallbackReceiverOptions {
  /**
   * The platform confirmed the payment (pulled, references and amount matched). Runs once per
   * completed effect — at least once: make its writes idempotent with `context.effectKey`.
   */
  onPaid?(record: TransactionRecord, context: EffectContext): unknown;
  /** The platform says the payment failed. Same contract as `onPaid`. */
  onFailed?(record: TransactionRecord, context: EffectContext): unknown;
  /**
   * A person must decide: the record is in `needs_review` (amount or reference mismatch, a claim
   * the platform never confirmed), or — with `record` null — a callback matched no record
   * (`verdict.reason === 'orphan'`, the callback in `verdict.evidence`).
   */
  onReview?(
    record: TransactionRecord | null,
    verdict: ReviewVerdict,
    context: EffectContext,
  ): unknown;
  /** Checkout return redirects (middleware options win over these). */
  returnUrls?: ReturnUrls;
  /** Larger bodies answer 413. @default 65536 */
  maxBodyBytes?: number;
  /** Inbox entries processed at once by this receiver. @default 4 */
  concurrency?: number;
  /** How long a worker holds an inbox entry before another may take it over. @default 60000 */
  leaseMs?: number;
  /** How often an idle worker looks for due entries. @default 500 */
  pollIntervalMs?: number;
  /** Failed processing attempts (of an inbox entry, or of a handler) before it is dead-lettered. @default 8 */
  maxAttempts?: number;
  /** Backoff between failed attempts (inbox entries and handlers). @default [1000, 5000, 30000, 120000, 600000] */
  retryDelaysMs?: readonly number[];
  /**
   * When the platform is still pending although a callback claimed an outcome, pull again after
   * these delays (the last repeats). @default [5000, 15000, 60000, 300000]
   */
  recheckDelaysMs?: readonly number[];
  /**
   * How long a success claim may stay unconfirmed before the record goes to `needs_review`
   * (`claim_not_confirmed`). @default 1800000 (30 minutes)
   */
  claimWindowMs?: number;
  /** The global rate limit of status pulls, per second. @default 20 */
  pullsPerSecond?: number;
  /** Status pulls in flight at once. @default 8 */
  pullConcurrency?: number;
  /** How often due effects left by crashed processes are run. @default 5000 */
  effectDrainIntervalMs?: number;
  /**
   * Finished inbox entries (`done`, `dead`) are deleted `keepMs` after they finished, by a prune
   * this receiver runs every `everyMs` from `start()` to `close()`. `false`: never (you prune
   * yourself with `store.inbox.prune()`). @default { keepMs: 7 days, everyMs: 1 hour }
   */
  inboxRetention?: InboxRetentionOptions | false;
}

/** The options with their defaults applied. */
export type ResolvedReceiverOptions = Required<
  Omit<
    CallbackReceiverOptions,
    'onPaid' | 'onFailed' | 'onReview' | 'returnUrls' | 'inboxRetention'
  >
> &
  Pick<CallbackReceiverOptions, 'onPaid' | 'onFailed' | 'onReview' | 'returnUrls'> & {
    inboxRetention: ResolvedInboxRetention | false;
  };

/** The longest a Node timer can wait; a longer one fires after 1 ms (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The options with their defaults. A bad value is a `ConfigurationError` naming the option
 * (docs/errors.md: everything pesakit throws is a PesakitError), thrown when the receiver is
 * made — not a `TypeError`, and not found later by a worker or a returning customer.
 */
export function resolveOptions(options: CallbackReceiverOptions): ResolvedReceiverOptions {
  const invalid = (name: string, rule: string, value: unknown) =>
    new ConfigurationError(
      name,
      `createCallbackReceiver: ${name} must be ${rule} (got ${String(value)}).`,
    );
  const positive = (
    name: keyof CallbackReceiverOptions,
    value: number | undefined,
    fallback: number,
    { whole = false, max = Number.POSITIVE_INFINITY } = {},
  ) => {
    const chosen = value ?? fallback;
    if (
      typeof chosen !== 'number' ||
      !Number.isFinite(chosen) ||
      chosen <= 0 ||
      chosen > max ||
      (whole && !Number.isInteger(chosen))
    ) {
      const rule = `a positive ${whole ? 'whole number' : 'number'}${max < Number.POSITIVE_INFINITY ? ` of at most ${max}` : ''}`;
      throw invalid(name, rule, value);
    }
    return chosen;
  };
  const delays = (
    name: keyof CallbackReceiverOptions,
    value: readonly number[] | undefined,
    fallback: number[],
  ) => {
    const chosen = value ?? fallback;
    if (
      !Array.isArray(chosen) ||
      chosen.length === 0 ||
      chosen.some((delay) => typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0)
    ) {
      throw invalid(name, 'a non-empty list of delays in ms', value);
    }
    return [...chosen];
  };
  checkReturnUrls(options.returnUrls);
  return {
    ...options,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 64 * 1024, { whole: true }),
    concurrency: positive('concurrency', options.concurrency, 4, { whole: true }),
    leaseMs: positive('leaseMs', options.leaseMs, 60_000),
    pollIntervalMs: positive('pollIntervalMs', options.pollIntervalMs, 500, { max: MAX_TIMER_MS }),
    maxAttempts: positive('maxAttempts', options.maxAttempts, 8, { whole: true }),
    retryDelaysMs: delays(
      'retryDelaysMs',
      options.retryDelaysMs,
      [1000, 5000, 30_000, 120_000, 600_000],
    ),
    recheckDelaysMs: delays(
      'recheckDelaysMs',
      options.recheckDelaysMs,
      [5000, 15_000, 60_000, 300_000],
    ),
    claimWindowMs: positive('claimWindowMs', options.claimWindowMs, 30 * 60_000),
    pullsPerSecond: positive('pullsPerSecond', options.pullsPerSecond, 20),
    pullConcurrency: positive('pullConcurrency', options.pullConcurrency, 8, { whole: true }),
    effectDrainIntervalMs: positive('effectDrainIntervalMs', options.effectDrainIntervalMs, 5000, {
      max: MAX_TIMER_MS,
    }),
    inboxRetention: resolveInboxRetention(options.inboxRetention),
  };
}

/** The delay for attempt `n` (1-based) from a schedule whose last delay repeats. */
export function delayFor(schedule: readonly number[], attempt: number): number {
  return schedule[Math.min(Math.max(attempt, 1), schedule.length) - 1] ?? 0;
}
