import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { SettlementHandler, SettlementHandlers } from '../settlement/effects.js';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;

/** Delays between checks by tier (the last repeats): an early burst, then widening tiers. */
export const defaultSchedules = {
  pending: [
    5 * second,
    10 * second,
    30 * second,
    minute,
    5 * minute,
    15 * minute,
    hour,
    6 * hour,
    day,
  ],
  unknown: [5 * second, 15 * second, minute, 5 * minute, 30 * minute, hour, 6 * hour, day],
} as const;

/** The shortest settle window not warned about: a shorter one may fail a payout listed late. */
export const minimumSettleWindowMs = minute;

const positiveInt = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int({ error: `${field} must be a whole number` })
    .min(1, { error: `${field} must be at least 1` });
const duration = (field: string) =>
  z
    .number({ error: `${field} must be a number of milliseconds` })
    .int({ error: `${field} must be a whole number of milliseconds` })
    .min(0, { error: `${field} must not be negative` });
const tiers = (field: string, fallback: readonly number[]) =>
  z
    .array(duration(`${field}[]`).min(1, { error: `${field} delays must be at least 1 ms` }))
    .min(1, { error: `${field} must list at least one delay` })
    .readonly()
    .default(fallback);
const handler = <N extends keyof SettlementHandlers>() =>
  z.custom<SettlementHandler<N>>((f) => typeof f === 'function', { error: 'must be a function' });

const optionsSchema = z.object({
  /** Pulls in flight at once. @default 8 */
  concurrency: positiveInt('concurrency')
    .max(256, { error: 'concurrency must be at most 256' })
    .default(8),
  /** Platform requests per second, all products together. @default 20 */
  ratePerSecond: z.number().positive({ error: 'ratePerSecond must be above 0' }).default(20),
  /** Milliseconds between checks, by tier, for `pending` and for `unknown` records. */
  schedules: z
    .object({
      pending: tiers('schedules.pending', defaultSchedules.pending),
      unknown: tiers('schedules.unknown', defaultSchedules.unknown),
    })
    .prefault({}),
  /** Each delay is moved by up to this fraction either way, so records spread out. @default 0.1 */
  jitter: z.number().min(0).max(0.5, { error: 'jitter must be between 0 and 0.5' }).default(0.1),
  /** A record older than this (since it was sent) goes to needs_review `max_attempts`. @default 3 days */
  maxAgeMs: duration('maxAgeMs').default(3 * day),
  /** A record checked this many times goes to needs_review `max_attempts`. @default 40 */
  maxAttempts: positiveInt('maxAttempts').default(40),
  /** An unpaid secure checkout older than this is failed with reason `expired`. @default 24 h */
  checkoutExpiryMs: duration('checkoutExpiryMs').default(day),
  /** Payout without a refid: absent from the history this long after the attempt, failed. @default 15 min */
  settleWindowMs: duration('settleWindowMs').default(15 * minute),
  /** Collection `unknown` with no platform reference: wait this long for a callback, then review. @default 30 min */
  noReferenceWindowMs: duration('noReferenceWindowMs').default(30 * minute),
  /** An `initiating` record older than this (a crash between write-ahead and send) is treated as unknown. @default 60 s */
  initiatingGraceMs: duration('initiatingGraceMs').default(minute),
  /** How long a leased record stays this worker's. @default 60 000 */
  leaseMs: positiveInt('leaseMs').default(minute),
  /** The most records one lease takes (a page is also at most `concurrency`). @default 200 */
  batchSize: positiveInt('batchSize').max(10_000).default(200),
  /** `start()`: how often to look for due work. @default 5 000 */
  // A Node timer waits at most 2^31-1 ms; a longer one fires after 1 ms, passes back to back.
  pollIntervalMs: positiveInt('pollIntervalMs')
    .max(2 ** 31 - 1, { error: 'pollIntervalMs must be at most 2147483647 (about 24.8 days)' })
    .default(5 * second),
  /** Same handlers as the callback receiver; run once per final transition, whoever wins it. */
  onPaid: handler<'onPaid'>().optional(),
  onFailed: handler<'onFailed'>().optional(),
  onSent: handler<'onSent'>().optional(),
  onNotSent: handler<'onNotSent'>().optional(),
  onReview: handler<'onReview'>().optional(),
});

/** Options of `pesakit.createReconciler()`. */
export type ReconcilerOptions = z.input<typeof optionsSchema>;
/** The options with every default filled in. */
export type ResolvedOptions = Omit<z.output<typeof optionsSchema>, keyof SettlementHandlers>;

/** Validates the options and fills defaults; a bad one is a `ConfigurationError` naming each rule. */
export function resolveOptions(options: ReconcilerOptions = {}): ResolvedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigurationError(
      'options',
      `createReconciler: the options must be an object ({ concurrency?, ratePerSecond?, … }) or left out (got ${String(options)}).`,
    );
  }
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    // zod's own messages (a wrong type, `null`) do not name the option: prefix its path.
    const rules = parsed.error.issues.map((issue) => {
      const option = issue.path.map(String).join('.');
      return issue.message.startsWith(option) ? issue.message : `${option}: ${issue.message}`;
    });
    throw new ConfigurationError(
      parsed.error.issues[0]?.path.map(String).join('.') || 'options',
      `createReconciler: ${rules.join('; ')}. Nothing was started.`,
    );
  }
  const { onPaid, onFailed, onSent, onNotSent, onReview, ...resolved } = parsed.data;
  return resolved;
}

/** A settle window under a minute is allowed (sandbox tests need one) but never silent. */
export function warnIfShortSettleWindow(options: ResolvedOptions): void {
  if (options.settleWindowMs >= minimumSettleWindowMs) return;
  process.emitWarning(
    `pesakit: createReconciler({ settleWindowMs: ${options.settleWindowMs} }) is under ` +
      `${minimumSettleWindowMs} ms. An unknown payout missing from the payout history is failed ` +
      `("never reached the platform") ${options.settleWindowMs} ms after its attempt, but the ` +
      'platform may still list a payout it was processing; failed, it may be paid again. Keep ' +
      `at least ${minimumSettleWindowMs} ms (the default is 15 min) outside tests.`,
    { code: 'PESAKIT_SHORT_SETTLE_WINDOW' },
  );
}
