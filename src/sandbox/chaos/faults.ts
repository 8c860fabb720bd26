import { z } from 'zod';

/**
 * What chaos mode may do to one merchant request or one callback delivery. The first group
 * never lies: every answer that arrives is true. The lies are drawn only when named.
 */
export const chaosFaultNames = [
  /** A 5xx (`x-pesakit-injected-fault`) before the route runs: nothing happened. */
  'error_before',
  /** The connection cut before the route runs: nothing happened, and no answer. */
  'cut_before',
  /** `429` with `Retry-After` before the route runs: nothing happened. */
  'rate_limit',
  /** The route acts, then the answer is held past the client's timeout (`lateMs`). */
  'late_answer',
  /** The route acts, then the connection is cut instead of answering. */
  'cut_after',
  /** A payout answered with only `message` and `response`; a history page with bare rows. */
  'bare_answer',
  /** The merchant callback is never sent. */
  'callback_drop',
  /** The merchant callback is sent twice, concurrently. */
  'callback_duplicate',
  /** The merchant callback is held, then sent with the others held, newest first. */
  'callback_reorder',
  /** The merchant callback is held `callbackDelayMs` before its first attempt. */
  'callback_delay',
  /** A lie: the money answer says another amount, MSISDN or status than the book holds. */
  'contradict_answer',
  /** A lie: the payout's row in the history says another amount, MSISDN, name or status. */
  'contradict_history',
] as const;

export type ChaosFault = (typeof chaosFaultNames)[number];

/** Drawn unless `faults` names others: everything but the lies. */
export const defaultChaosFaults: readonly ChaosFault[] = chaosFaultNames.filter(
  (name) => !name.startsWith('contradict_'),
);

export const requestFaults: readonly ChaosFault[] = [
  'error_before',
  'cut_before',
  'rate_limit',
  'late_answer',
  'cut_after',
  'bare_answer',
  'contradict_answer',
  'contradict_history',
];

export const callbackFaults: readonly ChaosFault[] = [
  'callback_drop',
  'callback_duplicate',
  'callback_reorder',
  'callback_delay',
];

/** The `chaos` option of `createSandbox` (and `--chaos <seed>`). */
export const chaosOptionsSchema = z.strictObject(
  {
    /** Every draw derives from it: the same seed and the same payments draw the same faults. */
    seed: z.union(
      [
        z.number().int({ error: 'The chaos.seed must be a whole number or a string.' }).min(0, {
          error: 'The chaos.seed must be at least 0.',
        }),
        z
          .string()
          .min(1, { error: 'The chaos.seed may not be empty.' })
          .max(64, { error: 'The chaos.seed may not be longer than 64 characters.' }),
      ],
      { error: 'The chaos.seed must be a whole number or a string of 1 to 64 characters.' },
    ),
    /** The share of requests and of callback deliveries that draw a fault. @default 0.1 */
    rate: z
      .number({ error: 'The chaos.rate must be a number from 0 to 1.' })
      .min(0, { error: 'The chaos.rate must be at least 0.' })
      .max(1, { error: 'The chaos.rate may not be greater than 1.' })
      .default(0.1),
    /** The faults that may be drawn. @default every fault but `contradict_answer` and `contradict_history` */
    faults: z
      .array(
        z.enum(chaosFaultNames, {
          error: `Each of chaos.faults must be one of ${chaosFaultNames.join(', ')}.`,
        }),
      )
      .min(1, { error: 'The chaos.faults must name at least one fault.' })
      .readonly()
      .default(defaultChaosFaults),
    /** How long `late_answer` holds an answer, in ms: past the client's timeout. @default 31_000 */
    lateMs: z
      .number({ error: 'The chaos.lateMs must be a number.' })
      .int({ error: 'The chaos.lateMs must be an integer.' })
      .min(0, { error: 'The chaos.lateMs must be at least 0.' })
      .max(600_000, { error: 'The chaos.lateMs may not be greater than 600000.' })
      .default(31_000),
    /** How long `callback_delay` holds a callback, in ms. @default 2_000 */
    callbackDelayMs: z
      .number({ error: 'The chaos.callbackDelayMs must be a number.' })
      .int({ error: 'The chaos.callbackDelayMs must be an integer.' })
      .min(0, { error: 'The chaos.callbackDelayMs must be at least 0.' })
      .max(60_000, { error: 'The chaos.callbackDelayMs may not be greater than 60000.' })
      .default(2_000),
  },
  {
    error: 'The chaos must be an object with only seed, rate, faults, lateMs and callbackDelayMs.',
  },
);

export type ChaosOptions = z.input<typeof chaosOptionsSchema>;
export type ChaosSettings = z.output<typeof chaosOptionsSchema>;
