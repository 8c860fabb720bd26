import { randomBytes, randomInt } from 'node:crypto';

/** Control numbers are 12 digits starting `99`; other references carry a prefix naming them. */

/** Uniform decimal digits (`randomInt` draws without modulo bias). */
function digits(count: number): string {
  return Array.from({ length: count }, () => randomInt(10)).join('');
}

function upperHex(bytes: number): string {
  return randomBytes(bytes).toString('hex').toUpperCase();
}

export const newControlNumber = () => `99${digits(10)}`;
export const newEngineReference = () => `ENG${upperHex(8)}`;
export const newExternalReference = () => `EXT${upperHex(8)}`;
/** The hosted checkout's payment token: unguessable, it is the page's only credential. */
export const newPaymentToken = () => randomBytes(24).toString('base64url');
export const newSessionId = () => `SES${upperHex(8)}`;
export const newProviderTransactionId = () => `TX${digits(12)}`;
export const newTxnId = () => `TXN${digits(12)}`;
export const newRefId = () => `DSB${upperHex(8)}`;
export const newAirtimeReference = () => `AIR${upperHex(8)}`;

/** Draws until `isTaken` says no: references are unique within one sandbox. */
export function unique(next: () => string, isTaken: (value: string) => boolean): string {
  for (;;) {
    const value = next();
    if (!isTaken(value)) return value;
  }
}
