import { z } from 'zod';

/** The wire format: `255` and nine digits (the schema's pattern, also tested without zod). */
export const MSISDN_WIRE_FORMAT = /^255\d{9}$/;

/** No `+`, no spaces (spec § Limits); {@link normalizeMsisdn} turns what a customer types into it. */
export const msisdnSchema = z
  .string({ error: 'The msisdn must be a string.' })
  .regex(MSISDN_WIRE_FORMAT, {
    // A number written the local way (`0754…`, `+255…`) is shown in its wire form.
    error: ({ input }) => {
      const wire = typeof input === 'string' ? normalizeMsisdn(input) : undefined;
      const hint = wire ? ` (write ${wire} for ${input}, as normalizeMsisdn does)` : '';
      return `The msisdn must be 255 followed by nine digits${hint}.`;
    },
    abort: true,
  });

export type Msisdn = z.infer<typeof msisdnSchema>;

/** `255…`, `+255…`, `0…` or nine digits, separators allowed, as the wire format; else `undefined`. */
export function normalizeMsisdn(input: string): Msisdn | undefined {
  const digits = input.trim().replace(/[\s\-.()]/g, '');
  const bare = digits.startsWith('+') ? digits.slice(1) : digits;
  if (!/^\d+$/.test(bare)) return undefined;
  if (MSISDN_WIRE_FORMAT.test(bare)) return bare;
  if (/^0\d{9}$/.test(bare)) return `255${bare.slice(1)}`;
  if (/^\d{9}$/.test(bare)) return `255${bare}`;
  return undefined;
}
