import { z } from 'zod';
import { airtimeRoleSchema, airtimeUserStatusSchema } from '../schemas/airtime.js';
import { MAX_AMOUNT_TZS } from '../schemas/amount.js';
import { disbursementUserStatusSchema } from '../schemas/disbursement.js';
import { DEFAULT_LOGIN_LIMITS, type LoginLimitSettings } from './auth/login-limits.js';
import { type AirtimeBulkLimits, airtimeBulkLimitsSchema } from './bulk/limits.js';
import type { ChargeRule } from './charge.js';
import { type FaultSettings, faultSettingsSchema } from './delivery/faults.js';
import { MAX_WALLET_BALANCE_TZS } from './money.js';

/** An account created when the sandbox starts (and again after every reset). */
export const seedAccountSchema = z.object({
  product: z.enum(['collection', 'airtime', 'disbursement']),
  email: z.string().min(1),
  password: z.string().min(1),
  name: z.string().min(1).optional(),
  phone: z
    .string()
    .regex(/^255\d{9}$/)
    .optional(),
  /** Airtime: pending | active | inactive; disbursement: unverified | active | rejected. */
  status: z.union([airtimeUserStatusSchema, disbursementUserStatusSchema]).optional(),
  role_id: airtimeRoleSchema.optional(),
  /** Opening wallet balance in TZS (airtime and disbursement only), whole cents, at most the wallet maximum. */
  balance: z
    .number()
    .finite()
    .min(0)
    .max(MAX_WALLET_BALANCE_TZS)
    .refine((value) => Number(value.toFixed(2)) === value, 'at most two decimal places')
    .optional(),
});
export type SeedAccount = z.infer<typeof seedAccountSchema>;

export const seedSchema = z.object({ accounts: z.array(seedAccountSchema).default([]) });
export type Seed = z.input<typeof seedSchema>;

/** A clock the sandbox reads for every timestamp it writes. */
export interface SandboxClock {
  now(): Date;
}

const clockSchema = z.custom<SandboxClock>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { now?: unknown }).now === 'function',
  { error: 'clock must be an object with a now() method' },
);

const chargeSchema = z.union([
  z.custom<(amount: number) => number>((value) => typeof value === 'function', {
    error: 'charge must be a function or {percent, minimum}',
  }),
  z.object({
    percent: z.number().finite().min(0).max(100).optional(),
    minimum: z.number().finite().min(0).optional(),
  }),
]);

const autoSettleSchema = z.union([
  z.literal(false),
  z.object({ delayMs: z.number().int().min(0).max(3_600_000).default(1500) }),
]);

/** Everything `createSandbox` accepts. Every field is optional. */
export interface SandboxOptions {
  /**
   * The disbursement charge: a function of the amount (TZS → TZS) or `{percent, minimum}`.
   * @default { percent: 1, minimum: 100 } — 1% rounded up to a whole shilling, at least 100 TZS
   */
  charge?: ChargeRule;
  /**
   * Delays (ms) between attempts to deliver a merchant callback; one retry per entry.
   * @default the dispatcher's own schedule
   */
  callbackSchedule?: readonly number[];
  /** Faults in force from the start (dropped, duplicated, delayed, reordered callbacks; latency). @default {} */
  faults?: FaultSettings;
  /** Source of "now" for every timestamp. @default the system clock */
  clock?: SandboxClock;
  /** Accounts (with status and wallet balance) created at start and after every reset. @default { accounts: [] } */
  seed?: Seed;
  /**
   * When set, every control API call must carry it in `x-control-key`, from any address.
   * When unset, the control API answers loopback callers only.
   * @default undefined
   */
  controlKey?: string;
  /**
   * When set, the engine callback requires it in `x-engine-key`.
   * @default undefined — the callback is accepted unauthenticated
   */
  engineKey?: string;
  /**
   * pay_mobile's API key, checked when a caller sends `x-api-key` (absent is allowed).
   * @default 'sandbox-pay-mobile-key'
   */
  apiKey?: string;
  /**
   * Automatic settlement of MNO, pay_mobile and checkout-phone collections after `delayMs`;
   * `false` leaves every collection pending until `POST _control/collection/settle`.
   * @default { delayMs: 1500 }
   */
  autoSettle?: false | { delayMs?: number };
  /**
   * The largest amount one request may move, in TZS; above it is a 422. At most the shared
   * bound `MAX_AMOUNT_TZS` (1,000,000,000), which every amount schema enforces anyway.
   * @default 10_000_000
   */
  maxAmount?: number;
  /** Fastify's logger. Authorization headers and bodies are never logged. @default false */
  logger?: boolean;
  /**
   * Failed logins allowed per window before logins are answered 429 with `Retry-After`:
   * `perAccount` (one product + email from one address), `perAddress` (all accounts from one
   * address). Only failures count. `false` switches the limit off.
   * @default { perAccount: 10, perAddress: 50, windowMs: 60_000 }
   */
  loginLimits?: false | Partial<LoginLimitSettings>;
  /**
   * How long a client may take to send a whole request (headers and body); a slower one is
   * answered 408 and its connection closed.
   * @default 30_000
   */
  requestTimeoutMs?: number;
  /**
   * The most records of each kind the sandbox keeps (collections, airtime payments,
   * recharges, payouts, registered accounts); one more is a 429 `sandbox_full` until a reset.
   * @default 10_000
   */
  recordLimit?: number;
  /**
   * Limits of the bulk airtime upload (`POST customer/bulkpayment`): rows per file and file
   * size (docs/sandbox.md § Bulk airtime).
   * @default { maxRows: 5_000, maxFileBytes: 5_242_880 }
   */
  airtimeBulk?: AirtimeBulkLimits;
}

export const sandboxOptionsSchema = z.object({
  charge: chargeSchema.default({ percent: 1, minimum: 100 }),
  callbackSchedule: z.array(z.number().int().min(0).max(3_600_000)).readonly().optional(),
  faults: faultSettingsSchema.default({}),
  clock: clockSchema.default({ now: () => new Date() }),
  seed: seedSchema.default({ accounts: [] }),
  controlKey: z.string().min(1).optional(),
  engineKey: z.string().min(1).optional(),
  apiKey: z.string().min(1).default('sandbox-pay-mobile-key'),
  autoSettle: autoSettleSchema.default({ delayMs: 1500 }),
  maxAmount: z.number().finite().positive().max(MAX_AMOUNT_TZS).default(10_000_000),
  logger: z.boolean().default(false),
  recordLimit: z.number().int().min(1).max(1_000_000).default(10_000),
  requestTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  airtimeBulk: airtimeBulkLimitsSchema,
  loginLimits: z
    .union([
      z.literal(false),
      z.object({
        perAccount: z.number().int().min(1).max(1_000_000).default(DEFAULT_LOGIN_LIMITS.perAccount),
        perAddress: z.number().int().min(1).max(1_000_000).default(DEFAULT_LOGIN_LIMITS.perAddress),
        windowMs: z.number().int().min(1).max(86_400_000).default(DEFAULT_LOGIN_LIMITS.windowMs),
      }),
    ])
    .default(DEFAULT_LOGIN_LIMITS),
});

/** The options after defaults are applied. */
export type ResolvedSandboxOptions = z.output<typeof sandboxOptionsSchema>;

/** Validates options and applies defaults; a bad option throws a TypeError naming it. */
export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  const result = sandboxOptionsSchema.safeParse(options);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || 'options'}: ${issue.message}`,
  );
  throw new TypeError(`Invalid sandbox options — ${problems.join('; ')}`);
}
