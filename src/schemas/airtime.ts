import { z } from 'zod';
import { walletSchema } from './account.js';
import { amountSchema } from './amount.js';
import { msisdnSchema } from './msisdn.js';
import { payableMsisdnSchema, providerSchema } from './provider.js';

// The spec shows the purchase body and answer and the recharge callback; the rest is ours.

/** role_id: 1 admin, 2 user, 3 finance. A role-2 user needs status `active` to proceed. */
export const airtimeRoleSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export const airtimeUserStatusSchema = z.enum(['pending', 'active', 'inactive']);
export type AirtimeUserStatus = z.infer<typeof airtimeUserStatusSchema>;

export const airtimeUserSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role_id: airtimeRoleSchema,
  status: airtimeUserStatusSchema,
});
export type AirtimeUser = z.infer<typeof airtimeUserSchema>;

export const airtimeUserWithWalletSchema = airtimeUserSchema.extend({ wallet: walletSchema });
export type AirtimeUserWithWallet = z.infer<typeof airtimeUserWithWalletSchema>;

export const airtimeRegisterResponseSchema = z.looseObject({
  message: z.string(),
  user: airtimeUserSchema,
});
export type AirtimeRegisterResponse = z.infer<typeof airtimeRegisterResponseSchema>;

export const airtimeLoginResponseSchema = z.looseObject({
  token: z.string(),
  token_type: z.literal('Bearer'),
  user: airtimeUserWithWalletSchema,
});
export type AirtimeLoginResponse = z.infer<typeof airtimeLoginResponseSchema>;

export const airtimeUserResponseSchema = z.looseObject({ user: airtimeUserWithWalletSchema });
export type AirtimeUserResponse = z.infer<typeof airtimeUserResponseSchema>;

export const airtimePurchaseRequestSchema = z.object({
  msisdn: payableMsisdnSchema,
  amount: amountSchema,
});
export type AirtimePurchaseRequest = z.infer<typeof airtimePurchaseRequestSchema>;

export const airtimePaymentStatusSchema = z.enum(['pending', 'success', 'failed']);
export type AirtimePaymentStatus = z.infer<typeof airtimePaymentStatusSchema>;

/** The stored airtime payment record: provider, status and the processing message. */
export const airtimePaymentSchema = z.looseObject({
  id: z.number(),
  reference: z.string(),
  msisdn: z.string(),
  amount: z.number(),
  provider: providerSchema,
  status: airtimePaymentStatusSchema,
  message: z.string(),
  created_at: z.string(),
});
export type AirtimePayment = z.infer<typeof airtimePaymentSchema>;

/** `payment` is ours (every purchase gets a reference); a vendor failure is a final 200 `failed`. */
export const airtimePurchaseResponseSchema = z.looseObject({
  status: z.string(),
  message: z.string(),
  payment: airtimePaymentSchema.optional(),
});
export type AirtimePurchaseResponse = z.infer<typeof airtimePurchaseResponseSchema>;

export const rechargeRequestSchema = z.object({
  amount: amountSchema,
  msisdn: msisdnSchema.optional(),
});
export type RechargeRequest = z.infer<typeof rechargeRequestSchema>;

export const rechargeStatusSchema = z.enum(['pending', 'success', 'failed']);
export type RechargeStatus = z.infer<typeof rechargeStatusSchema>;

export const rechargeResponseSchema = z.looseObject({
  message: z.string(),
  controlNumber: z.string().min(1),
  status: rechargeStatusSchema,
  amount: z.number(),
});
export type RechargeResponse = z.infer<typeof rechargeResponseSchema>;

/** The recharge callback. Validation is centred on controlNumber; the logic depends on status. */
export const rechargeCallbackSchema = z.object({
  controlNumber: z
    .string({ error: 'The controlNumber must be a string.' })
    .min(1, { error: 'The controlNumber field is required.' }),
  status: z.boolean({ error: 'The status must be true or false.' }),
});
export type RechargeCallback = z.infer<typeof rechargeCallbackSchema>;

export const rechargeCallbackResponseSchema = z.looseObject({
  message: z.string(),
  controlNumber: z.string(),
  status: rechargeStatusSchema,
});
export type RechargeCallbackResponse = z.infer<typeof rechargeCallbackResponseSchema>;
