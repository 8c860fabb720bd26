import { z } from 'zod';
import { emailSchema, passwordSchema, registerRequestSchema } from '../../schemas/account.js';
import { airtimeRoleSchema, airtimeUserStatusSchema } from '../../schemas/airtime.js';
import { amountSchema } from '../../schemas/amount.js';
import { collectionStatusRequestSchema } from '../../schemas/collection.js';
import { disbursementUserStatusSchema } from '../../schemas/disbursement.js';

const productSchema = z.enum(['collection', 'airtime', 'disbursement'], {
  error: 'The product must be one of collection, airtime, disbursement.',
});

/** `POST _control/accounts`: create or update an account (this is how accounts are activated). */
export const controlAccountSchema = z
  .object({
    product: productSchema,
    email: emailSchema,
    password: passwordSchema.optional(),
    name: registerRequestSchema.shape.name.optional(),
    phone: registerRequestSchema.shape.phone.optional(),
    status: z.string({ error: 'The status must be a string.' }).optional(),
    role_id: airtimeRoleSchema.optional(),
  })
  .superRefine((value, issues) => {
    const allowed =
      value.product === 'airtime'
        ? airtimeUserStatusSchema.options
        : value.product === 'disbursement'
          ? disbursementUserStatusSchema.options
          : [];
    if (value.status !== undefined && !(allowed as readonly string[]).includes(value.status)) {
      issues.addIssue({
        code: 'custom',
        path: ['status'],
        message:
          allowed.length === 0
            ? 'Collection accounts have no status.'
            : `The status of the ${value.product} account must be one of ${allowed.join(', ')}.`,
      });
    }
    if (value.role_id !== undefined && value.product !== 'airtime') {
      issues.addIssue({
        code: 'custom',
        path: ['role_id'],
        message: 'Only airtime accounts have a role_id.',
      });
    }
  });

export const walletCreditSchema = z.object({
  product: z.enum(['airtime', 'disbursement'], {
    error: 'The product must be airtime or disbursement (collection accounts have no wallet).',
  }),
  email: emailSchema,
  amount: amountSchema,
});

export const settleSchema = collectionStatusRequestSchema.extend({
  outcome: z.enum(['success', 'failed'], { error: 'The outcome must be success or failed.' }),
});

export const airtimePaymentsQuerySchema = z.object({
  msisdn: z.string().max(32).optional(),
  reference: z.string().max(64).optional(),
  status: z.enum(['pending', 'success', 'failed']).optional(),
});

const pageNumber = (field: string, min: number, max: number) =>
  z.coerce
    .number({ error: `The ${field} must be a whole number.` })
    .int({ error: `The ${field} must be a whole number.` })
    .min(min, { error: `The ${field} must be at least ${min}.` })
    .max(max, { error: `The ${field} may not be greater than ${max}.` })
    .optional();

/** `?after=<seq>&limit=<n>` of the control API's logs: the page after a cursor. */
export const pageQuerySchema = z.object({
  after: pageNumber('after', 0, Number.MAX_SAFE_INTEGER),
  limit: pageNumber('limit', 1, 10_000),
});

export const transactionsQuerySchema = pageQuerySchema.extend({
  kind: z
    .enum(['collection', 'airtime_payment', 'recharge', 'payout'], {
      error: 'The kind must be one of collection, airtime_payment, recharge, payout.',
    })
    .optional(),
});

/** `POST _control/chaos`: pause the draws (for a drain) or resume them. */
export const chaosControlSchema = z.strictObject(
  { paused: z.boolean({ error: 'The paused field must be true or false.' }) },
  { error: 'The body must be {"paused": true} or {"paused": false}.' },
);
