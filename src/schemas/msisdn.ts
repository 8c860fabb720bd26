import { z } from 'zod';

/** The wire format: `255` and nine digits (the schema's pattern, also tested without zod). */
export const MSISDN_WIRE_FORMAT = /^255\d{9}$/;

/**
 * A Tanzanian mobile number in the platform's wire format: `255` followed by nine digits,
 * no `+`, no spaces (spec § Limits). Use {@link normalizeMsisdn} to turn what a customer types
 * (`0754 123 456`, `+255754123456`) into this form before sending.
 */
export const msisdnSchema = z
  .string({ error: 'The msisdn must be a string.' })
  .regex(MSISDN_WIRE_FORMAT, {
    error: 'The msisdn must be 255 followed by nine digits.',
    abort: true,
  });

export type Msisdn = z.infer<typeof msisdnSchema>;

/**
 * Turns the ways people write a Tanzanian number into the wire format, or returns `undefined`
 * when the input cannot be one. Accepts `255…`, `+255…`, `0…` (local) and nine bare digits,
 * with spaces, dashes, dots or parentheses between digits.
 *
 * @example normalizeMsisdn('0754 123 456') // '255754123456'
 */
export function normalizeMsisdn(input: string): Msisdn | undefined {
  const digits = input.trim().replace(/[\s\-.()]/g, '');
  const bare = digits.startsWith('+') ? digits.slice(1) : digits;
  if (!/^\d+$/.test(bare)) return undefined;
  if (MSISDN_WIRE_FORMAT.test(bare)) return bare;
  if (/^0\d{9}$/.test(bare)) return `255${bare.slice(1)}`;
  if (/^\d{9}$/.test(bare)) return `255${bare}`;
  return undefined;
}
