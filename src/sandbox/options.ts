import { z } from 'zod';
import { hostnameOf } from '../internal/host-guard.js';
import { registerRequestSchema } from '../schemas/account.js';
import { airtimeRoleSchema, airtimeUserStatusSchema } from '../schemas/airtime.js';
import { AIRTIME_BULK_MAX_FILE_BYTES, AIRTIME_BULK_MAX_ROWS } from '../schemas/airtime-bulk.js';
import { MAX_AMOUNT_TZS } from '../schemas/amount.js';
import { disbursementUserStatusSchema } from '../schemas/disbursement.js';
import { chaosOptionsSchema } from './chaos/faults.js';
import { faultSettingsSchema } from './delivery/faults.js';
import { MAX_WALLET_BALANCE_TZS } from './money.js';

/** An account created when the sandbox starts (and again after every reset). */
export const seedAccountSchema = z.object({
  product: z.enum(['collection', 'airtime', 'disbursement']),
  email: z.string().min(1),
  password: z.string().min(1),
  name: z.string().min(1).optional(),
  phone: registerRequestSchema.shape.phone.optional(),
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

const limit = (min: number, max: number) => z.number().int().min(min).max(max);

/** Limits of `customer/bulkpayment`: more rows is a 422 `too_many_rows`, a bigger file a 413. */
const airtimeBulkLimitsSchema = z
  .object({
    maxRows: limit(1, 100_000).default(AIRTIME_BULK_MAX_ROWS),
    maxFileBytes: limit(1024, 100 * 1024 * 1024).default(AIRTIME_BULK_MAX_FILE_BYTES),
  })
  .prefault({});

/** Everything `createSandbox` accepts; every field is optional. */
export const sandboxOptionsSchema = z.object({
  /** The disbursement charge: `(amount) => charge` or `{percent, minimum}`. @default { percent: 1, minimum: 100 } */
  charge: z
    .union([
      z.custom<(amount: number) => number>((value) => typeof value === 'function', {
        error: 'charge must be a function or {percent, minimum}',
      }),
      z.object({
        percent: z.number().finite().min(0).max(100).optional(),
        minimum: z.number().finite().min(0).optional(),
      }),
    ])
    .default({ percent: 1, minimum: 100 }),
  /** Delays (ms) between attempts to deliver a merchant callback; one retry per entry. @default [1000, 5000, 30000, 120000] */
  callbackSchedule: z.array(limit(0, 3_600_000)).readonly().optional(),
  /** Faults in force from the start (dropped, duplicated, delayed, reordered callbacks; latency). @default {} */
  faults: faultSettingsSchema.default({}),
  /** Source of "now" for every timestamp. @default the system clock */
  clock: z
    .custom<SandboxClock>(
      (value) => typeof (value as { now?: unknown } | null)?.now === 'function',
      { error: 'clock must be an object with a now() method' },
    )
    .default({ now: () => new Date() }),
  /** Accounts (with status and wallet balance) created at start and after every reset. @default { accounts: [] } */
  seed: seedSchema.default({ accounts: [] }),
  /** Required in `x-control-key` from every caller when set; unset, only loopback may call. */
  controlKey: z.string().min(1).optional(),
  /** Host names besides loopback the control API answers to (Host and Origin); others get 403. @default [] */
  allowedHosts: z
    .array(
      z.string().refine((name) => hostnameOf(name) === name.trim().toLowerCase(), {
        error: 'each allowed host must be a host name without a port, such as sandbox.local',
      }),
    )
    .max(100)
    .default([]),
  /** When set, the engine callback requires it in `x-engine-key`; unset, it is accepted unauthenticated. */
  engineKey: z.string().min(1).optional(),
  /** pay_mobile's API key, checked when a caller sends `x-api-key` (absent is allowed). @default 'sandbox-pay-mobile-key' */
  apiKey: z.string().min(1).default('sandbox-pay-mobile-key'),
  /** Settles phone collections after `delayMs`; `false` waits for `_control/collection/settle`. @default { delayMs: 1500 } */
  autoSettle: z
    .union([z.literal(false), z.object({ delayMs: limit(0, 3_600_000).default(1500) })])
    .prefault({}),
  /** The largest amount one request may move, in TZS; above it is a 422. At most `MAX_AMOUNT_TZS`. @default 10_000_000 */
  maxAmount: z.number().finite().positive().max(MAX_AMOUNT_TZS).default(10_000_000),
  /** Fastify's logger. Authorization headers and bodies are never logged. @default false */
  logger: z.boolean().default(false),
  /** Records of each kind kept; one more is a 429 `sandbox_full` until a reset. @default 10_000 */
  recordLimit: limit(1, 1_000_000).default(10_000),
  /** Entries kept in each log (deliveries, acted requests, the chaos timeline); the oldest go first. @default 100_000 */
  logLimit: limit(100, 10_000_000).default(100_000),
  /** Seeded faults drawn per request and per callback delivery (see docs/chaos.md). @default off */
  chaos: chaosOptionsSchema.optional(),
  /** How long a client may take to send a whole request; a slower one is answered 408 and closed. @default 30_000 */
  requestTimeoutMs: limit(100, 600_000).default(30_000),
  /** Limits of the bulk airtime upload: rows per file and file size. @default { maxRows: 5_000, maxFileBytes: 5_242_880 } */
  airtimeBulk: airtimeBulkLimitsSchema,
  /** Failed logins per window before a 429. @default { perAccount: 10, perAddress: 50, windowMs: 60_000 } */
  loginLimits: z
    .union([
      z.literal(false),
      z.object({
        perAccount: limit(1, 1_000_000).default(10),
        perAddress: limit(1, 1_000_000).default(50),
        windowMs: limit(1, 86_400_000).default(60_000),
      }),
    ])
    .prefault({}),
});

export type SandboxOptions = z.input<typeof sandboxOptionsSchema>;

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
