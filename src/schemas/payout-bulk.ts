import { z } from 'zod';
import { airtimeBulkRowSchema } from './airtime-bulk.js';
import { disbursementRequestSchema } from './disbursement.js';
import { payableMsisdnSchema } from './provider.js';

// The platform has no bulk payout route: a batch is one `disbursement/payment` per row, so a row
// is valid exactly when that payout is; the name's 255 characters are the account name's rule.

/** Defaults, as for bulk airtime. */
export const PAYOUT_BULK_MAX_ROWS = 5000;

export const payoutBulkRowSchema = z.object({
  msisdn: payableMsisdnSchema,
  amount: disbursementRequestSchema.shape.amount,
  name: disbursementRequestSchema.shape.name,
  reference: airtimeBulkRowSchema.shape.reference,
});
export type PayoutBulkRow = z.infer<typeof payoutBulkRowSchema>;
