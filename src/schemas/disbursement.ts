import { z } from 'zod';
import { registerRequestSchema, walletSchema } from './account.js';
import { amountSchema } from './amount.js';
import { paginatorSchema } from './pagination.js';

// The register/login bodies and pagination are ours; the spec shows the payment and history.

export const disbursementUserStatusSchema = z.enum(['unverified', 'active', 'rejected']);
export type DisbursementUserStatus = z.infer<typeof disbursementUserStatusSchema>;

export const disbursementUserSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  status: disbursementUserStatusSchema,
});
export type DisbursementUser = z.infer<typeof disbursementUserSchema>;

export const disbursementRegisterResponseSchema = z.looseObject({
  message: z.string(),
  user: disbursementUserSchema,
  token: z.string(),
});
export type DisbursementRegisterResponse = z.infer<typeof disbursementRegisterResponseSchema>;

export const disbursementLoginResponseSchema = z.looseObject({
  user: disbursementUserSchema,
  wallet: walletSchema,
  token: z.string(),
});
export type DisbursementLoginResponse = z.infer<typeof disbursementLoginResponseSchema>;

export const disbursementUserResponseSchema = z.looseObject({
  user: disbursementUserSchema,
  wallet: walletSchema,
});
export type DisbursementUserResponse = z.infer<typeof disbursementUserResponseSchema>;

/** Any msisdn string: the platform checks format, then provider, each its own 400. */
export const disbursementRequestSchema = z.object({
  msisdn: z.string({ error: 'The msisdn must be a string.' }),
  amount: amountSchema,
  name: registerRequestSchema.shape.name,
});
export type DisbursementRequest = z.infer<typeof disbursementRequestSchema>;

export const disbursementStatusSchema = z.enum(['pending', 'completed', 'failed']);
export type DisbursementStatus = z.infer<typeof disbursementStatusSchema>;

/** A payout record as getPayments lists it. */
export const disbursementPaymentSchema = z.looseObject({
  txnid: z.string(),
  refid: z.string(),
  amount: z.number(),
  charge: z.number().optional(),
  msisdn: z.string(),
  name: z.string(),
  status: disbursementStatusSchema,
  created_at: z.string(),
});
export type DisbursementPayment = z.infer<typeof disbursementPaymentSchema>;

/** `response.reference` is the `refid`; `payment` (with its `txnid`) is ours: both keys at once. */
export const disbursementResponseSchema = z.looseObject({
  message: z.string(),
  response: z.looseObject({
    status: z.boolean(),
    reference: z.string(),
    message: z.string(),
  }),
  payment: disbursementPaymentSchema.optional(),
});
export type DisbursementResponse = z.infer<typeof disbursementResponseSchema>;

/**
 * A payout as the history lists it. The spec shows only `txnid`, `refid` and `amount`; the
 * recipient, name, status and time are read when the platform sends them, never required.
 */
export const disbursementHistoryRowSchema = disbursementPaymentSchema.partial({
  msisdn: true,
  name: true,
  status: true,
  created_at: true,
});
export type DisbursementHistoryRow = z.infer<typeof disbursementHistoryRowSchema>;

export const disbursementHistoryResponseSchema = z.looseObject({
  payments: paginatorSchema(disbursementHistoryRowSchema),
});
export type DisbursementHistoryResponse = z.infer<typeof disbursementHistoryResponseSchema>;
