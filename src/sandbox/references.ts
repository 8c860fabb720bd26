import { randomBytes, randomInt } from 'node:crypto';

/**
 * The sandbox's references (docs/sandbox.md § References): control numbers are 12 digits
 * starting `99`; everything else carries a prefix naming what it is.
 */

/** Uniform decimal digits (`randomInt` draws without modulo bias). */
function digits(count: number): string {
  return Array.from({ length: count }, () => randomInt(10)).join('');
}

function upperHex(bytes: number): string {
  return randomBytes(bytes).toString('hex').toUpperCase();
}

/** A control number: `99` + ten digits. */
export const newControlNumber = () => `99${digits(10)}`;
/** The engine's payment reference (`reference` / `paymentReference`). */
export const newEngineReference = () => `ENG${upperHex(8)}`;
/** The hosted checkout's `external_reference`. */
export const newExternalReference = () => `EXT${upperHex(8)}`;
/** The hosted checkout's payment token: unguessable, it is the page's only credential. */
export const newPaymentToken = () => randomBytes(24).toString('base64url');
/** A card session id for the hosted checkout. */
export const newSessionId = () => `SES${upperHex(8)}`;
/** The provider's transaction id in an engine payload. */
export const newProviderTransactionId = () => `TX${digits(12)}`;
/** A disbursement `txnid`. */
export const newTxnId = () => `TXN${digits(12)}`;
/** A disbursement `refid` (also the `response.reference` of the payout answer). */
export const newRefId = () => `DSB${upperHex(8)}`;
/** An airtime payment reference. */
export const newAirtimeReference = () => `AIR${upperHex(8)}`;

/** Draws until `isTaken` says no: references are unique within one sandbox. */
export function unique(next: () => string, isTaken: (value: string) => boolean): string {
  for (;;) {
    const value = next();
    if (!isTaken(value)) return value;
  }
}
