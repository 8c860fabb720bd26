import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { TransactionRecord } from '../references/record.js';
import type { ReviewVerdict } from '../references/review.js';
import type { EffectContext, SettlementHandler } from '../settlement/effects.js';
import { checkReturnUrls, type ReturnUrls } from './return-urls.js';
import { pullOptionNames } from './status-puller.js';

/** The longest a Node timer can wait; a longer one fires after 1 ms (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** 100 years: a longer retention is "never", and would not make a valid cut-off Date. */
const MAX_KEEP_MS = 100 * 365.25 * 24 * 3_600_000;

const positive = (fallback: number, { whole = false, max = Number.POSITIVE_INFINITY } = {}) => {
  const error = `a positive ${whole ? 'whole number' : 'number'}${max < Number.POSITIVE_INFINITY ? ` of at most ${max}` : ''}`;
  const value = z.number({ error }).positive({ error }).max(max, { error });
  return (whole ? value.int({ error }) : value).default(fallback);
};
const delays = (fallback: number[]) => {
  const error = 'a non-empty list of delays in ms';
  return z
    .array(z.number({ error }).min(0, { error }), { error })
    .min(1, { error })
    .readonly()
    .default(fallback)
    .transform((list): readonly number[] => [...list]);
};
const wholeMs = (fallback: number, max: number) => {
  const error = `a positive whole number of ms of at most ${max}`;
  return z
    .number({ error })
    .int({ error })
    .positive({ error })
    .max(max, { error })
    .default(fallback);
};
const handler = <T extends (...args: never[]) => unknown>() =>
  z.custom<T>((value) => typeof value === 'function', { error: 'a function' }).optional();

const inboxRetention = z.object(
  {
    /** How long a finished entry is kept (a redelivery within it is a counted duplicate). @default 7 days */
    keepMs: wholeMs(7 * 24 * 3_600_000, MAX_KEEP_MS),
    /**
     * How long a finished entry that changed nothing (an orphan, a callback for a record already
     * final or never confirmed) is kept: what bounds the disk a forger can take. @default 3600000 (1 hour)
     */
    orphanKeepMs: wholeMs(3_600_000, MAX_KEEP_MS),
    /** How often this receiver prunes, from `start()` until `close()`. @default 3600000 (1 hour) */
    everyMs: wholeMs(3_600_000, MAX_TIMER_MS),
  },
  { error: '{ keepMs?, orphanKeepMs?, everyMs? } or false' },
);

const sourceBudget = z.object(
  {
    /** Callbacks one source address (an IPv6 one: its /64) may store a minute. @default 1200 */
    callbacksPerMinute: positive(1200, { whole: true }),
    /** Bytes (body and URL) one source address may store a minute. @default 2097152 (2 MiB) */
    bytesPerMinute: positive(2 * 1024 * 1024, { whole: true }),
    /** Callbacks every source together may store a minute, in this process. @default 6000 */
    totalCallbacksPerMinute: positive(6000, { whole: true }),
    /** Bytes every source together may store a minute, in this process. @default 4194304 (4 MiB) */
    totalBytesPerMinute: positive(4 * 1024 * 1024, { whole: true }),
    /** Unfinished inbox entries above which such callbacks answer 503. @default 10000 */
    maxBacklog: positive(10_000, { whole: true }),
  },
  {
    error:
      '{ callbacksPerMinute?, bytesPerMinute?, totalCallbacksPerMinute?, totalBytesPerMinute?, maxBacklog? } or false',
  },
);

const receiverOptions = z.object({
  /** A collection is paid. Each handler runs at least once: be idempotent on `context.effectKey`. */
  onPaid: handler<SettlementHandler<'onPaid'>>(),
  /** A collection failed. */
  onFailed: handler<SettlementHandler<'onFailed'>>(),
  /** A payout or an airtime purchase went out (`record.product` says which). */
  onSent: handler<SettlementHandler<'onSent'>>(),
  /** A payout or an airtime purchase failed. */
  onNotSent: handler<SettlementHandler<'onNotSent'>>(),
  /** Any product: a person must decide; `record` is null for a callback matching no record. */
  onReview:
    handler<
      (record: TransactionRecord | null, verdict: ReviewVerdict, context: EffectContext) => unknown
    >(),
  /** Checkout return redirects (middleware options win over these). */
  returnUrls: z.custom<ReturnUrls>().optional(),
  /** Larger bodies answer 413; the platform's callbacks are under 1 KiB. @default 16384 */
  maxBodyBytes: positive(16 * 1024, { whole: true }),
  /** Inbox entries processed at once by this receiver. @default 4 */
  concurrency: positive(4, { whole: true }),
  /** How long a worker holds an inbox entry before another may take it over. @default 60000 */
  leaseMs: positive(60_000),
  /** How often an idle worker looks for due entries. @default 500 */
  pollIntervalMs: positive(500, { max: MAX_TIMER_MS }),
  /** Failed attempts (of an inbox entry, or of a handler) before it is dead-lettered. @default 8 */
  maxAttempts: positive(8, { whole: true }),
  /** Backoff between failed attempts (inbox entries and handlers). @default [1000, 5000, 30000, 120000, 600000] */
  retryDelaysMs: delays([1000, 5000, 30_000, 120_000, 600_000]),
  /** Re-pull delays (the last repeats) while a claimed outcome is still pending. @default [5000, 15000, 60000, 300000] */
  recheckDelaysMs: delays([5000, 15_000, 60_000, 300_000]),
  /** How long a success claim may stay unconfirmed before `needs_review`. @default 1800000 (30 min) */
  claimWindowMs: positive(30 * 60_000),
  /** How often due effects left by crashed processes are run. @default 5000 */
  effectDrainIntervalMs: positive(5000, { max: MAX_TIMER_MS }),
  /** Prune finished inbox entries `keepMs` after they finished, every `everyMs`; `false`: never. */
  inboxRetention: z.union([z.literal(false), inboxRetention]).prefault({}),
  // Forged callbacks: what one source may store (the client's puller shares status answers).
  /**
   * What callbacks that are not a known open record's (orphans, claims at odds with their
   * record) may store: above it they answer 503 with Retry-After; `false`: no limit.
   */
  sourceBudget: z.union([z.literal(false), sourceBudget]).prefault({}),
});

export type CallbackReceiverOptions = z.input<typeof receiverOptions>;
export type InboxRetentionOptions = z.input<typeof inboxRetention>;
export type ResolvedInboxRetention = z.output<typeof inboxRetention>;
/** The options with their defaults, and the window of the status puller the receiver uses. */
export type ResolvedReceiverOptions = z.output<typeof receiverOptions> & {
  /** One status pull per reference per window: the client's `pullWindowMs`. */
  readonly pullWindowMs: number;
};

/**
 * The options with their defaults; a bad value is a `ConfigurationError` naming the option, and
 * so is a status pull limit: the client's one puller has them (`new Pesakit({ pullsPerSecond })`).
 */
export function resolveOptions(options: CallbackReceiverOptions): z.output<typeof receiverOptions> {
  checkReturnUrls(options.returnUrls);
  for (const name of pullOptionNames) {
    if (options !== null && typeof options === 'object' && name in options) {
      throw new ConfigurationError(
        name,
        `createCallbackReceiver: ${name} is an option of the client now — pass it to ` +
          `new Pesakit({ ${name} }): one status puller, with one rate limit, serves the ` +
          "client's receivers and verifyCheckoutReturn.",
      );
    }
  }
  const parsed = receiverOptions.safeParse(options);
  if (parsed.success) return parsed.data;
  let [issue] = parsed.error.issues;
  let path = issue?.path ?? [];
  // `inboxRetention` is false or an object: name the object's own bad field.
  if (issue?.code === 'invalid_union') {
    const inner = issue.errors.at(-1)?.[0];
    path = [...path, ...(inner?.path ?? [])];
    issue = inner ?? issue;
  }
  path = path.filter((key) => typeof key === 'string');
  const name = path.join('.');
  const value = path.reduce<unknown>(
    (at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key],
    options,
  );
  throw new ConfigurationError(
    name,
    `createCallbackReceiver: ${name} must be ${issue?.message} (got ${String(value)}).`,
  );
}

/** The delay for attempt `n` (1-based) from a schedule whose last delay repeats. */
export function delayFor(schedule: readonly number[], attempt: number): number {
  return schedule[Math.min(Math.max(attempt, 1), schedule.length) - 1] ?? 0;
}
