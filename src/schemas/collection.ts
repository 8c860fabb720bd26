import { z } from 'zod';
import { amountSchema } from './amount.js';
import { engineDateSchema } from './engine-date.js';
import { payableMsisdnSchema, providerSchema } from './provider.js';

// The spec shows only the engine callback and the status request; the other bodies are ours.

export const collectionStatusSchema = z.enum(['pending', 'success', 'failed']);
export type CollectionStatus = z.infer<typeof collectionStatusSchema>;

export const collectionChannelSchema = z.enum(['mno', 'bank', 'secure', 'pay_mobile']);
export type CollectionChannel = z.infer<typeof collectionChannelSchema>;

export const callbackUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'The callback_url must be a valid http or https URL.',
});

/** A required string field, with the platform's messages. */
const text = (field: string) =>
  z
    .string({ error: `The ${field} must be a string.` })
    .min(1, { error: `The ${field} field is required.` });

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

/** `payment_token` is what the hosted page's own calls carry (the spec does not show how). */
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

export const checkoutMnoRequestSchema = z.object({
  token: text('token'),
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

export const portalSessionRequestSchema = z.object({ token: text('token') });
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

/** The engine's settlement callback: an incomplete `data.*` is a 422 with per-field errors. */
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

/** `merchant/test-<provider>`: ours is a `payload.signature` HMAC-SHA256 token and its SHA-256. */
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

/** The merchant's callback (not shown by the spec): the engine's payload plus both references. */
export const merchantCallbackSchema = z.looseObject({
  ...engineCallbackSchema.shape,
  controlNumber: z.string().min(1),
  external_reference: z.string().nullable(),
});
export type MerchantCallback = z.infer<typeof merchantCallbackSchema>;
