import { z } from 'zod';
import { amountSchema } from '../../schemas/amount.js';
import {
  findControlCharacter,
  showControlCharacters,
  withoutControlCharacters,
} from '../../schemas/control-characters.js';
import { msisdnSchema } from '../../schemas/msisdn.js';
import type { Flow } from '../record.js';
import type { TransactionIntent } from '../types.js';
import { type ParsedReservation, reservationSchema } from '../wallet-float.js';
import { parse, referenceSchema } from './common.js';

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

export const productSchema = z.enum(['collection', 'airtime', 'disbursement'], {
  error: 'must be collection, airtime or disbursement',
});

// Metadata is for the merchant's own identifiers, not for documents: small and flat. A key is a
// name, so it holds no control character; a value is the merchant's free text, where a tab
// (pasted from a sheet) is kept, and no other control character.
const metadataSchema = z
  .record(
    z.string(),
    z
      .string({ error: 'values must be strings' })
      .max(500, { error: 'values: at most 500 characters' })
      .check(
        withoutControlCharacters(
          (found) => `must not contain control characters other than a tab (found ${found})`,
          { tab: true },
        ),
      ),
  )
  .check((ctx) => {
    // Checked here, not by the record's key schema, whose messages zod reports without the key.
    for (const key of Object.keys(ctx.value)) {
      const problem = metadataKeyProblem(key);
      if (problem !== undefined)
        ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
    }
  })
  .refine((value) => Object.keys(value).length <= 50, { error: 'must have at most 50 keys' });

function metadataKeyProblem(key: string): string | undefined {
  const shown = `"${showControlCharacters(key.slice(0, 64))}${key.length > 64 ? '…' : ''}"`;
  if (key === '') return 'keys must not be empty';
  if (key.length > 64) return `keys must be at most 64 characters (${shown} has ${key.length})`;
  const found = findControlCharacter(key);
  if (found === undefined) return undefined;
  return `keys must not contain control characters (found ${found} in the key ${shown})`;
}

// The login is an account's name (an email), compared exactly after lower-casing: spaces around
// it or control characters would make two spellings of one account. Extra keys are dropped, so
// nothing but these two fields (never a password) is stored.
const accountSchema = z.object({
  environment: z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }),
  login: z
    .string({ error: 'must be a string or null' })
    .min(1, { error: 'must not be empty' })
    .max(320, { error: 'must be at most 320 characters' })
    .refine((value) => value.trim() === value, { error: 'must not start or end with spaces' })
    .check(
      withoutControlCharacters((found) => `must not contain control characters (found ${found})`),
    )
    .transform((value) => value.toLowerCase())
    .nullable(),
});

const intentSchema = z
  .object({
    merchantReference: referenceSchema,
    product: productSchema,
    flow: z.enum(flows, { error: `must be one of ${flows.join(', ')}` }),
    amount: amountSchema,
    msisdn: msisdnSchema.optional(),
    metadata: metadataSchema.optional(),
    account: accountSchema.optional(),
    reservation: reservationSchema.optional(),
  })
  .refine((intent) => productOfFlow[intent.flow] === intent.product, {
    error: 'does not belong to the given product',
    path: ['flow'],
  });

/** An intent checked; its reservation in whole cents. */
export type ParsedIntent = Omit<TransactionIntent, 'reservation'> & {
  reservation?: ParsedReservation;
};

export function parseIntent(input: TransactionIntent): ParsedIntent {
  return parse('records.create', 'intent', intentSchema, input) as ParsedIntent;
}

const merchantReferenceSchema = z.object({ merchantReference: referenceSchema });

export function parseMerchantReference(operation: string, value: string): string {
  return parse(operation, 'merchantReference', merchantReferenceSchema, {
    merchantReference: value,
  }).merchantReference;
}

/** The most merchant references one `getMany` reads: one statement's worth on every store. */
export const maxReferencesPerRead = 1000;

const merchantReferencesSchema = z.object({
  merchantReferences: z
    .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
    .max(maxReferencesPerRead, { error: `must hold at most ${maxReferencesPerRead} references` }),
});

/** As `get`, any string is a fair question; the list itself must be an array within the limit. */
export function parseMerchantReferences(values: readonly string[]): string[] {
  return parse('records.getMany', 'merchantReferences', merchantReferencesSchema, {
    merchantReferences: values,
  }).merchantReferences;
}

/** Any string is a fair question, but only a valid reference can be an answer. */
export function isLookupable(value: unknown): value is string {
  return referenceSchema.safeParse(value).success;
}
