import { z } from 'zod';
import { airtimePaymentSchema, airtimePurchaseRequestSchema } from './airtime.js';
import { withoutControlCharacters } from './control-characters.js';

// The spec does not show bulk airtime's file shape: everything here is our decision.

/** Defaults; the sandbox takes options to change them. */
export const AIRTIME_BULK_MAX_ROWS = 5000;
export const AIRTIME_BULK_MAX_FILE_BYTES = 5 * 1024 * 1024;

/** A row is valid exactly when a purchase of its msisdn and amount is. */
export const airtimeBulkRowSchema = z.object({
  msisdn: airtimePurchaseRequestSchema.shape.msisdn,
  amount: airtimePurchaseRequestSchema.shape.amount,
  // A label unique to its row, passed on in the platform's upload file: no tab either.
  reference: z
    .string({ error: 'The reference must be a string.' })
    .check(
      withoutControlCharacters(
        (found) => `The reference may not contain control characters (found ${found}).`,
      ),
    )
    .trim()
    .min(1, { error: 'The reference may not be empty; leave the cell blank instead.' })
    .max(64, { error: 'The reference may not be longer than 64 characters.' })
    .optional(),
});
export type AirtimeBulkRow = z.infer<typeof airtimeBulkRowSchema>;

/** No `:`: a row's merchant reference `airtime:<batchId>:<row>` must split back unambiguously. */
export const airtimeBulkBatchIdSchema = z
  .string({ error: 'The batch_id must be a string.' })
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, {
    error: 'The batch_id must be 1–64 letters, digits, "_", "-" or "." (no ":").',
  });

export const airtimeBulkRowStatusSchema = z.enum(['success', 'failed']);
export type AirtimeBulkRowStatus = z.infer<typeof airtimeBulkRowStatusSchema>;

export const airtimeBulkRowResultSchema = z.looseObject({
  /** 1-based, under the header. */
  row: z.number().int().positive(),
  msisdn: z.string(),
  amount: z.number(),
  reference: z.string().nullable(),
  /** `airtime:<batchId>:<row>`, as the SDK names the same row. */
  merchant_reference: z.string(),
  status: airtimeBulkRowStatusSchema,
  message: z.string(),
  payment: airtimePaymentSchema,
});
export type AirtimeBulkRowResult = z.infer<typeof airtimeBulkRowResultSchema>;

/** Every row ran: `success` debited the wallet, `failed` debited nothing. */
export const airtimeBulkResponseSchema = z.looseObject({
  status: z.literal('completed'),
  message: z.string(),
  batch: z.looseObject({
    id: z.string(),
    rows: z.number().int().nonnegative(),
    total_amount: z.number(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
  rows: z.array(airtimeBulkRowResultSchema),
});
export type AirtimeBulkResponse = z.infer<typeof airtimeBulkResponseSchema>;
