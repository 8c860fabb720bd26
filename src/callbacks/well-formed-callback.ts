import type { CallbackClaim } from '../references/inbox/types.js';
import { MAX_AMOUNT_TZS } from '../schemas/amount.js';

/**
 * The claim of a callback that is exactly what the platform sends — every field present, of its
 * type and within its rules — recognised without zod; `undefined` for anything else, which then
 * goes through the shared schemas (they alone write the 422's per-field errors).
 *
 * Why: the acknowledgement path runs once per callback, and building zod's result for a valid
 * body was the largest single cost of `receive()` after the framework's own. The rules here are
 * the schemas' (`engineCallbackSchema`, `merchantCallbackSchema`, `amountSchema`,
 * `engineDateSchema`), checked in the same order of decision: the merchant shape when the body
 * names a merchant field, the engine shape otherwise. It may only ever be stricter than them,
 * never looser: `test/callbacks/well-formed-callback.test.ts` compares the two on valid and
 * broken bodies. Only for values parsed from JSON text (plain data: no getters, no prototypes).
 */
export function wellFormedCallbackClaim(
  value: unknown,
  merchantReferenceHint: string | null,
): CallbackClaim | undefined {
  if (!isPlainRecord(value)) return undefined;
  const isMerchantShape = 'controlNumber' in value || 'external_reference' in value;
  let controlNumber: string | null = null;
  let externalReference: string | null = null;
  if (isMerchantShape) {
    const control = value['controlNumber'];
    const external = value['external_reference'];
    if (!isFilled(control) || (external !== null && typeof external !== 'string')) return undefined;
    controlNumber = control;
    externalReference = external;
  }
  if (
    typeof value['message'] !== 'string' ||
    typeof value['code'] !== 'string' ||
    typeof value['description'] !== 'string'
  ) {
    return undefined;
  }
  const status = value['status'];
  if (typeof status !== 'boolean') return undefined;
  const data = value['data'];
  if (!isPlainRecord(data)) return undefined;
  const { amount, paymentReference, transactionID, payerMobile, transactionDate } = data;
  if (
    !isFilled(data['providerType']) ||
    !isFilled(data['providerName']) ||
    !isFilled(paymentReference) ||
    !isFilled(transactionID) ||
    !isFilled(data['transactionChannel']) ||
    !isAmount(amount) ||
    typeof payerMobile !== 'string' ||
    !payerMobilePattern.test(payerMobile) ||
    typeof transactionDate !== 'string' ||
    !isEngineDate(transactionDate)
  ) {
    return undefined;
  }
  return {
    status: status ? 'success' : 'failed',
    amount,
    paymentReference,
    controlNumber,
    externalReference,
    transactionId: transactionID,
    merchantReferenceHint,
  };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `z.string().min(1)`. */
function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** `amountSchema`: finite, above 0, at most the bound, at most two decimals. */
function isAmount(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value > 0 &&
    value <= MAX_AMOUNT_TZS &&
    (Number.isInteger(value) || Number(value.toFixed(2)) === value)
  );
}

const payerMobilePattern = /^255\d+$/;
const engineDatePattern = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `engineDateSchema`: `YYYY-MM-DD HH:MM:SS` naming a real instant, decided by arithmetic
 * rather than by building a `Date` (the schema's way, and what made it show in profiles).
 */
function isEngineDate(value: string): boolean {
  const match = engineDatePattern.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  // Date.UTC reads years 0–99 as 1900–1999, so the schema refuses them: so does this.
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (daysInMonth[month - 1] as number) + (leap ? 1 : 0)) return false;
  return Number(match[4]) < 24 && Number(match[5]) < 60 && Number(match[6]) < 60;
}
