import { RequestValidationError } from '../../errors/request-validation-error.js';
import { newMerchantReference } from '../merchant-reference.js';

// A merchant reference is at most 64 characters; `:<row>` takes up to 6 (`:5000`, or more for
// a caller-raised row limit), so a batch id keeps 58.
const batchIdPattern = /^[A-Za-z0-9_\-.]{1,58}$/;

/** The batch id given (checked), or a new ULID. */
export function batchIdFor(given: string | undefined): string {
  if (given === undefined) return newMerchantReference();
  if (!batchIdPattern.test(given)) {
    throw new RequestValidationError('airtimeBulkPurchase', {
      batchId: ['The batchId must be 1–58 letters, digits, or _ - . (no colon).'],
    });
  }
  return given;
}

/** The merchant reference of a batch row: `<batchId>:<row>`. */
export function rowReference(batchId: string, row: number): string {
  return `${batchId}:${row}`;
}
