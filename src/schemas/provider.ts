import { z } from 'zod';
import { MSISDN_WIRE_FORMAT, type Msisdn, msisdnSchema } from './msisdn.js';

/**
 * The mobile network operators a Tanzanian number can belong to. The platform resolves the
 * provider from the two digits after the `255` country code; a number whose prefix belongs to no
 * operator cannot be paid or paid out (spec: "The mobile provider must be resolvable from it").
 */
export const providerSchema = z.enum(['vodacom', 'airtel', 'tigo', 'halotel', 'ttcl']);
export type Provider = z.infer<typeof providerSchema>;

/** Display names as the operators brand themselves (Tigo trades as Yas). */
export const providerNames: Readonly<Record<Provider, string>> = {
  vodacom: 'Vodacom',
  airtel: 'Airtel',
  tigo: 'Yas',
  halotel: 'Halotel',
  ttcl: 'TTCL',
};

const prefixes: Readonly<Record<string, Provider>> = {
  '74': 'vodacom',
  '75': 'vodacom',
  '76': 'vodacom',
  '79': 'vodacom',
  '68': 'airtel',
  '69': 'airtel',
  '78': 'airtel',
  '65': 'tigo',
  '67': 'tigo',
  '71': 'tigo',
  '77': 'tigo',
  '61': 'halotel',
  '62': 'halotel',
  '73': 'ttcl',
};

/**
 * The provider of a wire-format MSISDN, or `undefined` when its prefix belongs to no operator
 * (a well-formed number can still be unpayable).
 */
export function resolveProvider(msisdn: Msisdn): Provider | undefined {
  // What msisdnSchema accepts (a string in the wire format), without a zod parse: this runs on
  // every initiation and payout.
  if (typeof msisdn !== 'string' || !MSISDN_WIRE_FORMAT.test(msisdn)) return undefined;
  return providerOfWellFormed(msisdn);
}

/** The operator of a number already known to be well formed: the prefix table alone. */
function providerOfWellFormed(msisdn: Msisdn): Provider | undefined {
  return prefixes[msisdn.slice(3, 5)];
}

/**
 * An MSISDN that is well formed *and* belongs to a known operator. The two failures have their
 * own messages because the platform answers them differently (malformed vs unsupported
 * provider, both 400 on disbursement). The format check aborts on failure, so the refinement
 * sees only well-formed numbers and reads the prefix table directly ({@link resolveProvider}
 * would parse the number a second time, on every initiation).
 */
export const payableMsisdnSchema = msisdnSchema.refine((value) => providerOfWellFormed(value), {
  error: 'The msisdn does not belong to a supported mobile provider.',
});
