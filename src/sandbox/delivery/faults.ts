import { z } from 'zod';

// Callbacks lost, repeated, late or out of order (spec: "Delivery may repeat"); bounded values.

/** A whole number in `[min, max]`, with Laravel-style messages that name the field. */
function boundedInteger(field: string, min: number, max: number) {
  return z
    .number({ error: `The ${field} must be a number.` })
    .int({ error: `The ${field} must be an integer.` })
    .min(min, { error: `The ${field} must be at least ${min}.` })
    .max(max, { error: `The ${field} may not be greater than ${max}.` })
    .optional();
}

const callbackFaultsSchema = z.strictObject(
  {
    /** Drop the next N deliveries: logged as `dropped`, never sent, never retried. */
    drop: boundedInteger('callbacks.drop', 0, 1000),
    /** Send each delivery N times (1 = normal), as independent deliveries, concurrently. */
    duplicate: boundedInteger('callbacks.duplicate', 1, 10),
    /** Hold each delivery this long before its first attempt. */
    delayMs: boundedInteger('callbacks.delayMs', 0, 60_000),
    /** Hold deliveries for a short window, then release the batch newest-first. */
    reorder: z.boolean({ error: 'The callbacks.reorder must be true or false.' }).optional(),
  },
  { error: 'The callbacks must be an object with only drop, duplicate, delayMs and reorder.' },
);

const rateLimitFaultSchema = z.strictObject(
  {
    /** Answer the next N platform requests 429 (before their handler: nothing happens). */
    next: boundedInteger('rateLimit.next', 0, 1000),
    /** The `Retry-After` those answers carry, in seconds. @default 1 */
    retryAfterSeconds: boundedInteger('rateLimit.retryAfterSeconds', 0, 3600),
  },
  { error: 'The rateLimit must be an object with only next and retryAfterSeconds.' },
);

const contradictFaultSchema = z.strictObject(
  {
    /** Answer the next N money calls (payout, airtime, collection) with this field changed. */
    next: boundedInteger('contradict.next', 0, 1000),
    field: z.enum(['amount', 'msisdn', 'name', 'status'], {
      error: 'The contradict.field must be amount, msisdn, name or status.',
    }),
    /** `history`: the answer is true and the payout history lies (payouts only). */
    in: z
      .enum(['answer', 'history'], { error: 'The contradict.in must be answer or history.' })
      .optional(),
  },
  { error: 'The contradict must be an object with only next, field and in.' },
);

const bareAnswersSchema = z.strictObject(
  {
    /**
     * Answer the next N payouts with only `message` and `response`, as the spec shows them; with
     * `in: 'history'`, the next N payout history pages list only `txnid`, `refid` and `amount`.
     */
    next: boundedInteger('bareAnswers.next', 0, 1000),
    in: z
      .enum(['answer', 'history'], { error: 'The bareAnswers.in must be answer or history.' })
      .optional(),
  },
  { error: 'The bareAnswers must be an object with only next and in.' },
);

/** `POST _control/faults` and the `faults` option; a patch changes only the fields it names. */
export const faultSettingsSchema = z.strictObject(
  {
    callbacks: callbackFaultsSchema.optional(),
    /** Added to every sandbox response except the control API's. */
    latencyMs: boundedInteger('latencyMs', 0, 30_000),
    rateLimit: rateLimitFaultSchema.optional(),
    contradict: contradictFaultSchema.optional(),
    bareAnswers: bareAnswersSchema.optional(),
  },
  {
    error:
      'The faults must be an object with only callbacks, latencyMs, rateLimit, contradict and bareAnswers.',
  },
);
export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export interface Contradiction {
  field: 'amount' | 'msisdn' | 'name' | 'status';
  in: 'answer' | 'history';
}

/** The faults in force; `callbacks.drop` and `rateLimit.next` count down with each use. */
export class FaultBoard {
  #settings: FaultSettings;

  constructor(private readonly initial: FaultSettings = {}) {
    this.#settings = initial;
  }

  get settings(): FaultSettings {
    return this.#settings;
  }

  patch(patch: FaultSettings): FaultSettings {
    const merged: FaultSettings = { ...this.#settings };
    if (patch.callbacks) merged.callbacks = { ...merged.callbacks, ...patch.callbacks };
    if (patch.latencyMs !== undefined) merged.latencyMs = patch.latencyMs;
    if (patch.rateLimit) merged.rateLimit = { ...merged.rateLimit, ...patch.rateLimit };
    if (patch.contradict) merged.contradict = patch.contradict;
    if (patch.bareAnswers) merged.bareAnswers = patch.bareAnswers;
    this.#settings = merged;
    return merged;
  }

  /** Uses up one drop, if any remain; true when this delivery is to be dropped. */
  takeDrop(): boolean {
    const remaining = this.#settings.callbacks?.drop ?? 0;
    if (remaining <= 0) return false;
    this.patch({ callbacks: { drop: remaining - 1 } });
    return true;
  }

  /** Uses up one rate-limited answer: its `Retry-After` seconds, or undefined when served. */
  takeRateLimit(): number | undefined {
    const fault = this.#settings.rateLimit;
    if (!fault?.next) return undefined;
    this.patch({ rateLimit: { next: fault.next - 1 } });
    return fault.retryAfterSeconds ?? 1;
  }

  /** Uses up one contradicted answer: the field to change and where, or undefined when none. */
  takeContradiction(): Contradiction | undefined {
    const fault = this.#settings.contradict;
    if (!fault?.next) return undefined;
    this.patch({ contradict: { ...fault, next: fault.next - 1 } });
    return { field: fault.field, in: fault.in ?? 'answer' };
  }

  /** Uses up one bare payout answer or history page (`where`); true when it is to be bare. */
  takeBareAnswer(where: 'answer' | 'history'): boolean {
    const fault = this.#settings.bareAnswers;
    if (!fault?.next || (fault.in ?? 'answer') !== where) return false;
    this.patch({ bareAnswers: { ...fault, next: fault.next - 1 } });
    return true;
  }

  reset(): void {
    this.#settings = this.initial;
  }
}
