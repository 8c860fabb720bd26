import { z } from 'zod';
import { AIRTIME_BULK_MAX_FILE_BYTES, AIRTIME_BULK_MAX_ROWS } from '../../schemas/airtime-bulk.js';

/** Limits of `customer/bulkpayment`: more rows is a 422 `too_many_rows`, a bigger file a 413. */
export const airtimeBulkLimitsSchema = z
  .object({
    maxRows: z.number().int().min(1).max(100_000).default(AIRTIME_BULK_MAX_ROWS),
    maxFileBytes: z
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(AIRTIME_BULK_MAX_FILE_BYTES),
  })
  .default({ maxRows: AIRTIME_BULK_MAX_ROWS, maxFileBytes: AIRTIME_BULK_MAX_FILE_BYTES });
