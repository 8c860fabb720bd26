import { z } from 'zod';
import { amountSchema } from './amount.js';
import { engineDateSchema } from './engine-date.js';
import { payableMsisdnSchema, providerSchema } from './provider.js';

/**
 * Collection (prefix /api/sandbox). The spec shows only the engine callback payload and the
 * status request; every other body is our decision, recorded in docs/api-contract.md §
 * Collection. Names fixed by the sandbox issue: `amount`, `msisdn`, `callback_url` in;
 * `controlNumber` and `reference` (engine paymentReference) out, at the top level.
 */

export const collectionStatusSchema = z.enum(['pending', 'success', 'failed']);
export type CollectionStatus = z.infer<typeof collectionStatusSchema>;

export const collectionChannelSchema = z.enum(['mno', 'bank', 'secure', 'pay_mobile']);
export type CollectionChannel = z.infer<typeof collectionChannelSchema>;

const callbackUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'The callback_url must be a valid http or https URL.',
});

const descriptionSchema = z
  .string({ error: 'The description must be a string.' })
  .max(255, { error: 'The description may not be greater than 255 characters.' });

export const collectionLoginResponseSchema = z.looseObject({
  token: z.string(),
  token_type: z.literal('Bearer'),
  user: z.looseObject({ id: z.number(), name: z.string(), email: z.string() }),
});
export type CollectionLoginResponse = z.infer<typeof collectionLoginResponseSchema>;

export const mnoCollectionRequestSchema = z.object({
  amount: amountSchema,
  msisdn: payableMsisdnSchema,
  callback_url: callbackUrlSchema.optional(),
  description: descriptionSchema.optional(),
});
export type MnoCollectionRequest = z.infer<typeof mnoCollectionRequestSchema>;

export const bankCollectionRequestSchema = z.object({
  amount: amountSchema,
  callback_url: callbackUrlSchema.optional(),
  description: descriptionSchema.optional(),
});
export type BankCollectionRequest = z.infer<typeof bankCollectionRequestSchema>;

export const payMobileRequestSchema = mnoCollectionRequestSchema;
export type PayMobileRequest = z.infer<typeof payMobileRequestSchema>;

/** What every collection initiation answers: the two references a merchant must keep. */
export const collectionInitiationResponseSchema = z.looseObject({
  message: z.string(),
  status: collectionStatusSchema,
  controlNumber: z.string().min(1),
  reference: z.string().min(1),
  amount: z.number(),
});
export type CollectionInitiationResponse = z.infer<typeof collectionInitiationResponseSchema>;

export const secureCheckoutRequestSchema = z.object({
  amount: amountSchema,
  callback_url: callbackUrlSchema,
  description: descriptionSchema.optional(),
});
export type SecureCheckoutRequest = z.infer<typeof secureCheckoutRequestSchema>;

/**
 * The hosted checkout. `payment_url` is the page the customer opens; `payment_token` is the
 * token that the page's own calls (`mno/`, `portal-session`) carry (spec: "not shown" how it is
 * obtained — ours: here, and embedded in the page).
 */
export const secureCheckoutResponseSchema = z.looseObject({
  message: z.string(),
  payment_url: z.url(),
  external_reference: z.string().min(1),
  payment_token: z.string().min(1),
  controlNumber: z.string().min(1),
  reference: z.string().min(1),
  amount: z.number(),
});
export type SecureCheckoutResponse = z.infer<typeof secureCheckoutResponseSchema>;

const paymentTokenSchema = z
  .string({ error: 'The token must be a string.' })
  .min(1, { error: 'The token field is required.' });

export const checkoutMnoRequestSchema = z.object({
  token: paymentTokenSchema,
  msisdn: payableMsisdnSchema,
});
export type CheckoutMnoRequest = z.infer<typeof checkoutMnoRequestSchema>;

export const checkoutMnoResponseSchema = z.looseObject({
  message: z.string(),
  status: collectionStatusSchema,
  external_reference: z.string(),
  controlNumber: z.string(),
  reference: z.string(),
});
export type CheckoutMnoResponse = z.infer<typeof checkoutMnoResponseSchema>;

export const portalSessionRequestSchema = z.object({ token: paymentTokenSchema });
export type PortalSessionRequest = z.infer<typeof portalSessionRequestSchema>;

export const portalSessionResponseSchema = z.looseObject({
  message: z.string(),
  session_id: z.string().min(1),
  external_reference: z.string(),
  expires_at: z.string(),
});
export type PortalSessionResponse = z.infer<typeof portalSessionResponseSchema>;

export const collectionStatusRequestSchema = z.object({
  ref_id: z
    .string({ error: 'The ref_id must be a string.' })
    .trim()
    .min(1, { error: 'The ref_id field is required.' }),
});
export type CollectionStatusRequest = z.infer<typeof collectionStatusRequestSchema>;

/** A collection transaction as the status operation shows it. */
export const collectionTransactionSchema = z.looseObject({
  controlNumber: z.string(),
  reference: z.string(),
  external_reference: z.string().nullable(),
  channel: collectionChannelSchema,
  amount: z.number(),
  msisdn: z.string().nullable(),
  provider: providerSchema.nullable(),
  status: collectionStatusSchema,
  transactionID: z.string().nullable(),
  paid_amount: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CollectionTransaction = z.infer<typeof collectionTransactionSchema>;

export const collectionStatusResponseSchema = z.looseObject({
  message: z.string(),
  data: collectionTransactionSchema,
});
export type CollectionStatusResponse = z.infer<typeof collectionStatusResponseSchema>;

const text = (field: string) =>
  z
    .string({ error: `The ${field} must be a string.` })
    .min(1, { error: `The ${field} field is required.` });

/**
 * The engine's settlement callback (spec § Collection engine callback payload). `data` is
 * required and validated in full: an incomplete `data.*` is a 422 with per-field errors.
 */
export const engineCallbackSchema = z.object({
  message: z.string({ error: 'The message must be a string.' }),
  code: z.string({ error: 'The code must be a string.' }),
  status: z.boolean({ error: 'The status must be true or false.' }),
  description: z.string({ error: 'The description must be a string.' }),
  data: z.object(
    {
      providerType: text('data.providerType'),
      providerName: text('data.providerName'),
      amount: amountSchema,
      paymentReference: text('data.paymentReference'),
      payerMobile: z
        .string({ error: 'The data.payerMobile must be a string.' })
        .regex(/^255\d+$/, { error: 'The data.payerMobile must be 255 followed by digits.' }),
      transactionDate: engineDateSchema,
      transactionID: text('data.transactionID'),
      transactionChannel: text('data.transactionChannel'),
    },
    { error: 'The data field is required and must be an object.' },
  ),
});
export type EngineCallback = z.infer<typeof engineCallbackSchema>;

export const engineCallbackAckSchema = z.looseObject({
  message: z.string(),
  status: collectionStatusSchema,
  reference: z.string(),
  duplicate: z.boolean(),
});
export type EngineCallbackAck = z.infer<typeof engineCallbackAckSchema>;

/**
 * The sandbox's provider test endpoint (`merchant/test-<provider>`): a sample signed token and
 * its hash. Ours: a compact `payload.signature` token signed with HMAC-SHA256 and its SHA-256.
 */
export const testProviderSchema = z.enum([
  'vodacom',
  'airtel',
  'tigo',
  'halotel',
  'ttcl',
  'card',
  'bank',
]);
export type TestProvider = z.infer<typeof testProviderSchema>;

export const providerTestResponseSchema = z.looseObject({
  provider: testProviderSchema,
  token: z.string(),
  hash: z.string(),
  algorithm: z.string(),
});
export type ProviderTestResponse = z.infer<typeof providerTestResponseSchema>;

/**
 * What the platform POSTs to the merchant's `callback_url` when a collection settles: the
 * engine payload, plus the two references the merchant may have keyed the order by. The spec
 * does not show the merchant-facing body; ours forwards the engine's so that a merchant parses
 * one shape (docs/api-contract.md § Merchant callback).
 */
export const merchantCallbackSchema = z.looseObject({
  ...engineCallbackSchema.shape,
  controlNumber: z.string().min(1),
  external_reference: z.string().nullable(),
});
export type MerchantCallback = z.infer<typeof merchantCallbackSchema>;
