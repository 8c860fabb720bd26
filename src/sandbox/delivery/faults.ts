import { z } from 'zod';

/**
 * Faults a merchant can switch on to prove its callback handling survives the real world:
 * the platform's callbacks are at-least-once (spec § Events: "Delivery may repeat"), so a
 * correct merchant must cope with lost, repeated, late and out-of-order deliveries.
 */

/** A whole number in `[min, max]`, with Laravel-style messages that name the field. */
function boundedInteger(field: string, min: number, max: number) {
  return z
    .number({ error: `The ${field} must be a number.` })
    .int({ error: `The ${field} must be an integer.` })
    .min(min, { error: `The ${field} must be at least ${min}.` })
    .max(max, { error: `The ${field} may not be greater than ${max}.` });
}

/** Upper bounds keep one request from parking the sandbox for hours or flooding a merchant. */
export const FAULT_LIMITS = {
  drop: 1000,
  duplicate: 10,
  delayMs: 60_000,
  latencyMs: 30_000,
  rateLimitNext: 1000,
  retryAfterSeconds: 3600,
} as const;

export const callbackFaultsSchema = z.strictObject(
  {
    /** Drop the next N deliveries: logged as `dropped`, never sent, never retried. */
    drop: boundedInteger('callbacks.drop', 0, FAULT_LIMITS.drop).optional(),
    /** Send each delivery N times (1 = normal), as independent deliveries, concurrently. */
    duplicate: boundedInteger('callbacks.duplicate', 1, FAULT_LIMITS.duplicate).optional(),
    /** Hold each delivery this long before its first attempt. */
    delayMs: boundedInteger('callbacks.delayMs', 0, FAULT_LIMITS.delayMs).optional(),
    /** Hold deliveries for a short window, then release the batch newest-first. */
    reorder: z.boolean({ error: 'The callbacks.reorder must be true or false.' }).optional(),
  },
  { error: 'The callbacks must be an object with only drop, duplicate, delayMs and reorder.' },
);
export type CallbackFaults = z.infer<typeof callbackFaultsSchema>;

export const rateLimitFaultSchema = z.strictObject(
  {
    /** Answer the next N platform requests 429 (before their handler: nothing happens). */
    next: boundedInteger('rateLimit.next', 0, FAULT_LIMITS.rateLimitNext).optional(),
    /** The `Retry-After` those answers carry, in seconds. @default 1 */
    retryAfterSeconds: boundedInteger(
      'rateLimit.retryAfterSeconds',
      0,
      FAULT_LIMITS.retryAfterSeconds,
    ).optional(),
  },
  { error: 'The rateLimit must be an object with only next and retryAfterSeconds.' },
);

/**
 * The body of `POST /api/sandbox/_control/faults` and the `faults` option of the sandbox.
 * Every field is optional; a patch changes only the fields it names (see {@link mergeFaults}).
 */
export const faultSettingsSchema = z.strictObject(
  {
    callbacks: callbackFaultsSchema.optional(),
    /** Added to every sandbox response (applied by the server, not the dispatcher). */
    latencyMs: boundedInteger('latencyMs', 0, FAULT_LIMITS.latencyMs).optional(),
    /**
     * The platform's rate limit, on demand: the next `next` requests to its routes (never the
     * control API) are answered 429 with `Retry-After`, counting down like `callbacks.drop`.
     */
    rateLimit: rateLimitFaultSchema.optional(),
  },
  { error: 'The faults must be an object with only callbacks, latencyMs and rateLimit.' },
);
export type FaultSettings = z.infer<typeof faultSettingsSchema>;

/**
 * Applies a patch to the current settings, field by field, and returns a new object (never
 * mutates either argument). Set a field to its neutral value (`drop: 0`, `duplicate: 1`,
 * `delayMs: 0`, `reorder: false`, `latencyMs: 0`, `rateLimit.next: 0`) to switch it off.
 */
export function mergeFaults(current: FaultSettings, patch: FaultSettings): FaultSettings {
  const merged: FaultSettings = { ...current };
  if (patch.callbacks !== undefined) {
    merged.callbacks = { ...current.callbacks, ...patch.callbacks };
  }
  if (patch.latencyMs !== undefined) merged.latencyMs = patch.latencyMs;
  if (patch.rateLimit !== undefined) {
    merged.rateLimit = { ...current.rateLimit, ...patch.rateLimit };
  }
  return merged;
}

/**
 * The faults in force, with the one that counts down: `callbacks.drop` is "drop the next N",
 * so each drop lowers it and `settings` shows what remains. A patch changes only what it names;
 * a patch that does not name `drop` leaves the remaining count alone (it never re-arms it).
 */
export class FaultBoard {
  #settings: FaultSettings;

  constructor(private readonly initial: FaultSettings = {}) {
    this.#settings = initial;
  }

  /** What is in force now (a fresh object each time a patch or a drop changes it). */
  get settings(): FaultSettings {
    return this.#settings;
  }

  patch(patch: FaultSettings): FaultSettings {
    this.#settings = mergeFaults(this.#settings, patch);
    return this.#settings;
  }

  /** Uses up one drop, if any remain; true when this delivery is to be dropped. */
  takeDrop(): boolean {
    const remaining = this.#settings.callbacks?.drop ?? 0;
    if (remaining <= 0) return false;
    this.#settings = mergeFaults(this.#settings, { callbacks: { drop: remaining - 1 } });
    return true;
  }

  /**
   * Uses up one rate-limited answer, if any remain: the `Retry-After` seconds to answer 429
   * with, or undefined when this request is served. Read on every platform request, so the
   * common case (no fault) is one property read.
   */
  takeRateLimit(): number | undefined {
    const fault = this.#settings.rateLimit;
    if (fault === undefined || !fault.next) return undefined;
    this.#settings = mergeFaults(this.#settings, { rateLimit: { next: fault.next - 1 } });
    return fault.retryAfterSeconds ?? 1;
  }

  /** Back to the start-up faults. */
  reset(): void {
    this.#settings = this.initial;
  }
}
