import { randomBytes } from 'node:crypto';

/**
 * The references the sandbox hands out. The spec shows none of their formats; ours are chosen
 * so that a reader can tell them apart at a glance (docs/sandbox.md § References):
 * control numbers are 12 digits starting `99` (customers type them at a bank or USSD menu),
 * everything else carries a prefix naming what it is.
 */

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time and handed out once each: one call into
 * OpenSSL per few hundred references instead of one per reference (or per digit, as
 * `randomInt` did), which showed in the profile of every initiation and payout. Node's own
 * `randomUUID` batches the same way.
 */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

function randomByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++]!;
}

function randomChunk(count: number): Buffer {
  if (offset + count > pool.length) {
    pool = randomBytes(Math.max(POOL_SIZE, count));
    offset = 0;
  }
  const chunk = pool.subarray(offset, offset + count);
  offset += count;
  return chunk;
}

/** Uniform decimal digits: bytes of 250 and above are drawn again, so 0–9 are equally likely. */
function digits(count: number): string {
  let out = '';
  while (out.length < count) {
    const byte = randomByte();
    if (byte < 250) out += String.fromCharCode(48 + (byte % 10));
  }
  return out;
}

/** Each byte's two upper-case hex digits, so that a reference needs no Buffer view or `toUpperCase`. */
const HEX = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).toUpperCase().padStart(2, '0'),
);

function upperHex(bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i += 1) out += HEX[randomByte()];
  return out;
}

/** A control number: `99` + ten digits. */
export function newControlNumber(): string {
  return `99${digits(10)}`;
}

/** The engine's payment reference (`reference` / `paymentReference`). */
export function newEngineReference(): string {
  return `ENG${upperHex(8)}`;
}

/** The hosted checkout's `external_reference`. */
export function newExternalReference(): string {
  return `EXT${upperHex(8)}`;
}

/** The hosted checkout's payment token: unguessable, it is the page's only credential. */
export function newPaymentToken(): string {
  return randomChunk(24).toString('base64url');
}

/** A card session id for the hosted checkout. */
export function newSessionId(): string {
  return `SES${upperHex(8)}`;
}

/** The provider's transaction id in an engine payload. */
export function newProviderTransactionId(): string {
  return `TX${digits(12)}`;
}

/** A disbursement `txnid`. */
export function newTxnId(): string {
  return `TXN${digits(12)}`;
}

/** A disbursement `refid` (also the `response.reference` of the payout answer). */
export function newRefId(): string {
  return `DSB${upperHex(8)}`;
}

/** An airtime payment reference. */
export function newAirtimeReference(): string {
  return `AIR${upperHex(8)}`;
}

/** Draws until `isTaken` says no: references are unique within one sandbox. */
export function unique(next: () => string, isTaken: (value: string) => boolean): string {
  for (;;) {
    const value = next();
    if (!isTaken(value)) return value;
  }
}
