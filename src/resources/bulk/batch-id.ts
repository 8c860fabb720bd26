import { RequestValidationError } from '../../errors/request-validation-error.js';
import { newMerchantReference } from '../merchant-reference.js';

// A merchant reference is at most 64 characters: `airtime:` takes 8 and `:<row>` up to 6
// (`:5000`, or more for a caller-raised row limit), so a batch id keeps 50 for either product.
const batchIdPattern = /^[A-Za-z0-9_\-.]{1,50}$/;

export const batchIdRule = '1–50 letters, digits, or _ - . (no colon)';

/** The batch id given (checked), or a new ULID. */
export function batchIdFor(given: string | undefined, operation: string): string {
  if (given === undefined) return newMerchantReference();
  if (!batchIdPattern.test(given)) {
    throw new RequestValidationError(operation, {
      batchId: [`The batchId must be ${batchIdRule}.`],
    });
  }
  return given;
}

/** A row's merchant reference, `<product>:<batchId>:<row>`: one batch id never collides across products. */
export function rowReference(prefix: string, batchId: string, row: number): string {
  return `${prefix}:${batchId}:${row}`;
}
