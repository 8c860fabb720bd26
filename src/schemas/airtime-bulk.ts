import { z } from 'zod';
import { airtimePaymentSchema, airtimePurchaseRequestSchema } from './airtime.js';

/**
 * Bulk airtime (issue #10). The spec names production's `customer/bulkpayment` route ("session
 * auth, Excel-based") and says its sandbox exposure and file shape are not shown; everything
 * here is our decision (docs/api-contract.md § Bulk airtime, docs/sandbox.md § Bulk airtime).
 */

/** The most data rows one bulk file or batch may hold. The sandbox takes an option to change it. */
export const AIRTIME_BULK_MAX_ROWS = 5000;

/** The largest bulk file, in bytes: 5 MiB. The sandbox takes an option to change it. */
export const AIRTIME_BULK_MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * One row of a bulk send: a purchase (the same field rules, so a row is valid exactly when a
 * purchase with its msisdn and amount is) plus the merchant's own optional label for the row.
 */
export const airtimeBulkRowSchema = z.object({
  msisdn: airtimePurchaseRequestSchema.shape.msisdn,
  amount: airtimePurchaseRequestSchema.shape.amount,
  reference: z
    .string({ error: 'The reference must be a string.' })
    .trim()
    .min(1, { error: 'The reference may not be empty; leave the cell blank instead.' })
    .max(64, { error: 'The reference may not be longer than 64 characters.' })
    .optional(),
});
export type AirtimeBulkRow = z.infer<typeof airtimeBulkRowSchema>;

/**
 * What a batch id may be: 1–64 letters, digits, `_ - .`. No `:`, because a row's merchant
 * reference is `<batchId>:<row>` and must split back into the two unambiguously.
 */
export const airtimeBulkBatchIdSchema = z
  .string({ error: 'The batch_id must be a string.' })
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, {
    error: 'The batch_id must be 1–64 letters, digits, "_", "-" or "." (no ":").',
  });

export const airtimeBulkRowStatusSchema = z.enum(['success', 'failed']);
export type AirtimeBulkRowStatus = z.infer<typeof airtimeBulkRowStatusSchema>;

/** One row's outcome in the bulk answer: the row as sent and the payment record it made. */
export const airtimeBulkRowResultSchema = z.looseObject({
  /** 1-based position of the data row (the first row under the header is row 1). */
  row: z.number().int().positive(),
  msisdn: z.string(),
  amount: z.number(),
  /** The row's own `reference` cell, or null when it had none. */
  reference: z.string().nullable(),
  /** `<batchId>:<row>`: the merchant reference the SDK gives the same row when it sends it. */
  merchant_reference: z.string(),
  status: airtimeBulkRowStatusSchema,
  message: z.string(),
  /** The same record a single purchase answers with (its `reference` is the platform's). */
  payment: airtimePaymentSchema,
});
export type AirtimeBulkRowResult = z.infer<typeof airtimeBulkRowResultSchema>;

/**
 * The answer of `POST /api/sandbox/airtime/customer/bulkpayment`: every row ran, each either
 * `success` (wallet debited) or `failed` (the vendor refused; nothing debited).
 */
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
