import { z } from 'zod';
import { StoreInputError } from '../errors/store-input-error.js';
import { amountSchema } from '../schemas/amount.js';
import { msisdnSchema } from '../schemas/msisdn.js';
import type { ClaimEffectsOptions, FailEffectOptions } from './effects.js';
import { type ResolveOptions, type ReviewVerdict, reviewReasons } from './review.js';
import { openStatuses, transactionStatuses } from './transitions.js';
import type {
  Flow,
  ListOpenOptions,
  References,
  TransactionIntent,
  TransactionStatus,
  TransitionDetails,
} from './types.js';

/**
 * The rules every store applies to its arguments before touching anything, so that the three
 * implementations refuse exactly the same input with exactly the same error.
 */

/** The product each flow belongs to; a mismatch means the caller mixed two transactions up. */
export const productOfFlow = {
  mno: 'collection',
  bank: 'collection',
  secure: 'collection',
  pay_mobile: 'collection',
  checkout_mno: 'collection',
  airtime_purchase: 'airtime',
  airtime_recharge: 'airtime',
  disbursement: 'disbursement',
} as const satisfies Record<Flow, string>;

const flows = Object.keys(productOfFlow) as [Flow, ...Flow[]];

// References are identifiers, compared byte for byte: surrounding spaces or control characters
// would make two spellings of one reference, so they are refused rather than trimmed. The
// pattern is made once: every store call checks at least one reference.
const controlCharacter = /\p{Cc}/u;
const referenceSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(128, { error: 'must be at most 128 characters' })
  .refine((value) => value.trim() === value, { error: 'must not start or end with spaces' })
  .refine((value) => !controlCharacter.test(value), {
    error: 'must not contain control characters',
  });

/**
 * referenceSchema's rules as a plain check, for the happy path: a value it accepts, the schema
 * accepts unchanged; anything else goes to the schema, which words the error. (A zod parse per
 * reference, three to seven per money call, cost far more in a real call, where zod's code runs
 * cold between calls, than its micro-benchmark suggests.)
 */
function isPlainReference(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    value.length <= 128 &&
    value.trim() === value &&
    !controlCharacter.test(value)
  );
}

/** An object literal's shape: no prototype of its own, so its own keys are all it has. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

const statusSchema = z.enum(transactionStatuses as [TransactionStatus, ...TransactionStatus[]], {
  error: `must be one of ${transactionStatuses.join(', ')}`,
});

const statuses: ReadonlySet<string> = new Set(transactionStatuses);

const dateSchema = z
  .date({ error: 'must be a Date' })
  .refine((value) => !Number.isNaN(value.getTime()), { error: 'must be a valid Date' });

// Metadata is for the merchant's own identifiers, not for documents: small and flat.
const metadataSchema = z
  .record(
    z
      .string()
      .min(1, { error: 'keys must not be empty' })
      .max(64, { error: 'keys: at most 64 characters' }),
    z
      .string({ error: 'values must be strings' })
      .max(500, { error: 'values: at most 500 characters' }),
  )
  .refine((value) => Object.keys(value).length <= 50, { error: 'must have at most 50 keys' });

const intentSchema = z
  .object({
    merchantReference: referenceSchema,
    product: z.enum(['collection', 'airtime', 'disbursement'], {
      error: 'must be collection, airtime or disbursement',
    }),
    flow: z.enum(flows, { error: `must be one of ${flows.join(', ')}` }),
    amount: amountSchema,
    msisdn: msisdnSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((intent) => productOfFlow[intent.flow] === intent.product, {
    error: 'does not belong to the given product',
    path: ['flow'],
  });

const referencesSchema = z.strictObject(
  {
    controlNumber: referenceSchema.optional(),
    paymentReference: referenceSchema.optional(),
    externalReference: referenceSchema.optional(),
    txnid: referenceSchema.optional(),
    refid: referenceSchema.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has unknown reference kinds (${issue.keys.join(', ')}); the kinds are controlNumber, paymentReference, externalReference, txnid and refid`
        : 'must be an object of references',
  },
);

const shortText = z
  .string({ error: 'must be a string' })
  .max(1000, { error: 'must be at most 1000 characters' });

const reviewSchema = z.object(
  {
    reason: z.enum(reviewReasons, { error: `must be one of ${reviewReasons.join(', ')}` }),
    message: shortText.min(1, { error: 'must not be empty' }),
    evidence: z.unknown().optional(),
  },
  { error: 'must be a review verdict { reason, message, evidence? }' },
);

const transitionSchema = z
  .object({
    to: statusSchema,
    reason: shortText.optional(),
    at: dateSchema.optional(),
    review: reviewSchema.optional(),
  })
  .refine((details) => details.to !== 'needs_review' || details.review !== undefined, {
    error: 'is required when moving to needs_review: say why a person must decide',
    path: ['review'],
  })
  .refine((details) => details.to === 'needs_review' || details.review === undefined, {
    error: 'is only for a move to needs_review',
    path: ['review'],
  });

const resolveSchema = z.object({
  outcome: z.enum(['success', 'failed'], { error: 'must be success or failed' }),
  note: shortText.trim().min(1, { error: 'is required: say why, for the audit trail' }),
  by: z
    .string({ error: 'must be a string' })
    .max(200, { error: 'must be at most 200 characters' })
    .optional(),
  at: dateSchema.optional(),
});

const limitSchema = (max: number) =>
  z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(max, { error: `must be at most ${max}` });

const claimEffectsSchema = z.object({
  leaseMs: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(1, { error: 'must be at least 1' })
    .max(86_400_000, { error: 'must be at most 86400000 (a day)' }),
  limit: limitSchema(1000).optional(),
  merchantReference: referenceSchema.optional(),
});

const failEffectSchema = z.object({
  error: z.string({ error: 'must be a string' }),
  retryAt: dateSchema.nullable(),
});

const listPageSchema = z.object({
  limit: limitSchema(10_000).optional(),
  after: referenceSchema.optional(),
});

const listOpenSchema = z.object({
  statuses: z.array(statusSchema).min(1, { error: 'must name at least one status' }).optional(),
  product: z
    .enum(['collection', 'airtime', 'disbursement'], {
      error: 'must be collection, airtime or disbursement',
    })
    .optional(),
  checkedBefore: dateSchema.optional(),
  limit: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(10_000, { error: 'must be at most 10000' })
    .optional(),
});

function parse<T>(operation: string, subject: string, schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : subject;
    errors[field] = [...(errors[field] ?? []), sentence(field, issue.message)];
  }
  throw new StoreInputError(operation, errors);
}

/** "merchantReference must not be empty." — every message names its field and ends cleanly. */
function sentence(field: string, message: string): string {
  const name = field.split('.').at(-1) ?? field;
  const words: string[] = message.toLowerCase().match(/\w+/g) ?? [];
  const named = words.includes(name.toLowerCase()) ? message : `${field} ${message}`;
  return /[.!?]$/.test(named) ? named : `${named}.`;
}

export function parseIntent(input: TransactionIntent): TransactionIntent {
  const plain = plainIntent(input);
  if (plain !== undefined) return plain;
  return parse('createIntent', 'intent', intentSchema, input) as TransactionIntent;
}

/**
 * intentSchema's happy path (see isPlainReference): an intent without metadata whose every
 * field passes its rule; the amount and MSISDN by their own (leaf) schemas.
 */
function plainIntent(input: unknown): TransactionIntent | undefined {
  if (!isPlainObject(input)) return undefined;
  const { merchantReference, product, flow, amount, msisdn, metadata } = input;
  if (metadata !== undefined || !isPlainReference(merchantReference)) return undefined;
  if (typeof flow !== 'string' || !Object.hasOwn(productOfFlow, flow)) return undefined;
  if (productOfFlow[flow as Flow] !== product) return undefined;
  if (msisdn !== undefined && !msisdnSchema.safeParse(msisdn).success) return undefined;
  if (!amountSchema.safeParse(amount).success) return undefined;
  const intent: TransactionIntent = {
    merchantReference,
    product: product as TransactionIntent['product'],
    flow: flow as Flow,
    amount: amount as number,
  };
  if (msisdn !== undefined) intent.msisdn = msisdn as string;
  return intent;
}

// Built once, not per call: every store write parses its merchant reference with it.
const merchantReferenceSchema = z.object({ merchantReference: referenceSchema });

export function parseMerchantReference(operation: string, value: string): string {
  if (isPlainReference(value)) return value;
  return parse(operation, 'merchantReference', merchantReferenceSchema, {
    merchantReference: value,
  }).merchantReference;
}

/** A lookup value: any string is a fair question, but only a valid reference can be an answer. */
export function isLookupable(value: unknown): value is string {
  return isPlainReference(value);
}

const referenceKinds: ReadonlySet<string> = new Set([
  'controlNumber',
  'paymentReference',
  'externalReference',
  'txnid',
  'refid',
] satisfies Array<keyof References>);

export function parseReferences(input: References): References {
  const plain = plainReferences(input);
  if (plain !== undefined) return plain;
  const parsed = parse('attachReferences', 'refs', referencesSchema, input ?? {});
  const refs: References = {};
  for (const [field, value] of Object.entries(parsed)) {
    if (value !== undefined) refs[field as keyof References] = value;
  }
  return refs;
}

/** referencesSchema's happy path (see isPlainReference): the references, or undefined. */
function plainReferences(input: unknown): References | undefined {
  if (!isPlainObject(input)) return undefined;
  const refs: Record<string, string> = {};
  for (const key of Object.keys(input)) {
    const value = input[key];
    if (!referenceKinds.has(key)) return undefined;
    if (value === undefined) continue;
    if (!isPlainReference(value)) return undefined;
    refs[key] = value;
  }
  return refs as References;
}

/** The parsed details of a transition; `payload` is normalised to what JSON can hold. */
export interface ParsedTransition {
  to: TransactionStatus;
  reason: string | undefined;
  at: Date | undefined;
  payload: unknown;
  /** `payload` as JSON text (what the SQL stores write), kept so it is serialised once. */
  payloadText: string;
  hasPayload: boolean;
  review: ReviewVerdict | undefined;
}

export function parseTransition(
  to: TransactionStatus,
  details: TransitionDetails = {},
): ParsedTransition {
  const parsed =
    plainTransition(to, details) ??
    parse('transition', 'details', transitionSchema, { ...details, to });
  const hasPayload = details.payload !== undefined;
  const payloadText = hasPayload ? toJsonText('transition', 'payload', details.payload) : 'null';
  return {
    to: parsed.to,
    reason: parsed.reason ?? parsed.review?.message,
    at: parsed.at,
    payload: hasPayload ? JSON.parse(payloadText) : null,
    payloadText,
    hasPayload,
    review: parsed.review && parseReview('transition', parsed.review),
  };
}

/** The arguments of `attachAndTransition`, checked: what every store's answer write works on. */
export interface ParsedAnswerWrite {
  merchantReference: string;
  refs: References;
  transition: ParsedTransition;
  leaseToken: string | undefined;
}

/**
 * The checks of `attachAndTransition`, the same in every store and in the same order (the
 * merchant reference, the references, the transition), so that each refuses the same input
 * with the same error.
 */
export function parseAnswerWrite(
  merchantReference: string,
  refs: References,
  to: TransactionStatus,
  details?: TransitionDetails,
): ParsedAnswerWrite {
  return {
    merchantReference: parseMerchantReference('attachAndTransition', merchantReference),
    refs: parseReferences(refs),
    transition: parseTransition(to, details),
    leaseToken: details?.leaseToken,
  };
}

/**
 * transitionSchema's happy path (see isPlainReference): a move to any status but needs_review,
 * with at most a short reason besides the payload. Anything else (a time, a verdict, a long
 * reason, an unknown status) is the schema's to judge.
 */
function plainTransition(
  to: TransactionStatus,
  details: TransitionDetails,
): { to: TransactionStatus; reason?: string; at?: Date; review?: ReviewVerdict } | undefined {
  if (!statuses.has(to) || to === 'needs_review' || !isPlainObject(details)) return undefined;
  const { reason, at, review } = details;
  if (at !== undefined || review !== undefined) return undefined;
  if (reason === undefined) return { to };
  return typeof reason === 'string' && reason.length <= 1000 ? { to, reason } : undefined;
}

/** A verdict as it reads back from any store: evidence normalised through JSON. */
function parseReview(operation: string, review: ReviewVerdict): ReviewVerdict {
  const verdict: ReviewVerdict = { reason: review.reason, message: review.message };
  if (review.evidence !== undefined) {
    verdict.evidence = toJson(operation, 'review.evidence', review.evidence);
  }
  return verdict;
}

export function parseResolve(
  outcome: 'success' | 'failed',
  options: ResolveOptions,
): { outcome: 'success' | 'failed'; note: string; by: string | null; at: Date | undefined } {
  const parsed = parse('resolve', 'options', resolveSchema, { ...(options ?? {}), outcome });
  return { outcome: parsed.outcome, note: parsed.note, by: parsed.by ?? null, at: parsed.at };
}

export function parseClaimEffects(options: ClaimEffectsOptions): {
  leaseMs: number;
  limit: number;
  merchantReference: string | undefined;
} {
  const parsed = parse('claimEffects', 'options', claimEffectsSchema, options ?? {});
  return {
    leaseMs: parsed.leaseMs,
    limit: parsed.limit ?? 50,
    merchantReference: parsed.merchantReference,
  };
}

export function parseFailEffect(options: FailEffectOptions): FailEffectOptions {
  const parsed = parse('failEffect', 'options', failEffectSchema, options ?? {});
  // Stored for a person to read: bounded, whatever the handler threw.
  return { error: parsed.error.slice(0, 2000), retryAt: parsed.retryAt };
}

export function parseListPage(
  operation: string,
  options: { limit?: number; after?: string } = {},
): { limit: number; after: string | undefined } {
  const parsed = parse(operation, 'options', listPageSchema, options);
  return { limit: parsed.limit ?? 100, after: parsed.after };
}

export function parseListOpen(options: ListOpenOptions = {}): {
  statuses: readonly TransactionStatus[];
  product: string | undefined;
  checkedBefore: Date | undefined;
  limit: number;
} {
  const parsed = parse('listOpen', 'options', listOpenSchema, options);
  return {
    statuses: parsed.statuses ?? openStatuses,
    product: parsed.product,
    checkedBefore: parsed.checkedBefore,
    limit: parsed.limit ?? 100,
  };
}

export function parseCheckTime(at: Date | undefined): Date | undefined {
  return parse('recordCheck', 'at', z.object({ at: dateSchema.optional() }), { at }).at;
}

/**
 * A value's JSON text; parsed back, it is the value as it will read back from any store: what
 * survives a JSON round trip. Doing this in every store (memory too) means a `Date` or an
 * `undefined` field reads back the same way from memory as from SQLite or PostgreSQL.
 */
function toJsonText(operation: string, field: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StoreInputError(operation, {
      [field]: [`${field} must be JSON-serialisable (${(error as Error).message})`],
    });
  }
  return text === undefined ? 'null' : text;
}

function toJson(operation: string, field: string, value: unknown): unknown {
  return JSON.parse(toJsonText(operation, field, value));
}
