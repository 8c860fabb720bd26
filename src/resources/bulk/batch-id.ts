import { createHash } from 'node:crypto';
import { RequestValidationError } from '../../errors/request-validation-error.js';
import type { BulkProduct, BulkRow } from './bulk-product.js';

// A merchant reference is at most 64 characters: `airtime:` takes 8 and `:<row>` up to 6
// (`:5000`, or more for a caller-raised row limit), so a batch id keeps 50 for either product.
const batchIdPattern = /^[A-Za-z0-9_\-.]{1,50}$/;

export const batchIdRule = '1–50 letters, digits, or _ - . (no colon)';

/** The batch id given, checked. */
export function checkedBatchId(given: string, operation: string): string {
  if (!batchIdPattern.test(given)) {
    throw new RequestValidationError(operation, {
      batchId: [`The batchId must be ${batchIdRule}.`],
    });
  }
  return given;
}

/** What starts a derived batch id: it tells one apart from a ULID or a merchant's own id. */
export const derivedBatchIdPrefix = 'rows-';

const base32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The batch id of a run given none: `rows-` and 26 base32 characters (130 bits) of the SHA-256
 * of the product and the checked rows — row number, MSISDN, amount, name, reference. Not of the
 * file's bytes, which change when an .xlsx is saved again: the same rows are the same batch, so
 * a rerun resumes it instead of paying everyone again. Changing what is hashed changes every
 * derived id (a rerun across that change would start a new batch), hence the version inside.
 */
export function derivedBatchId(product: BulkProduct, rows: readonly BulkRow[]): string {
  const canonical = JSON.stringify([
    'pesakit-bulk-rows-v1',
    product.prefix,
    rows.map((row) => [row.row, row.msisdn, row.amount, row.name ?? null, row.reference ?? null]),
  ]);
  const digest = createHash('sha256').update(canonical, 'utf8').digest();
  let id = derivedBatchIdPrefix;
  // Five bits at a time from the top of the digest, read through the 16 bits that hold them.
  for (let bit = 0; bit < 26 * 5; bit += 5) {
    const word = ((digest[bit >> 3] ?? 0) << 8) | (digest[(bit >> 3) + 1] ?? 0);
    id += base32[(word >> (11 - (bit & 7))) & 31];
  }
  return id;
}

/** A row's merchant reference, `<product>:<batchId>:<row>`: one batch id never collides across products. */
export function rowReference(prefix: string, batchId: string, row: number): string {
  return `${prefix}:${batchId}:${row}`;
}
