import { z } from 'zod';
import { MSISDN_WIRE_FORMAT, type Msisdn, msisdnSchema } from './msisdn.js';

/** Resolved from the two digits after `255`; a number of no operator cannot be paid. */
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

/** The two digits after `255` of each operator's numbers (the OpenAPI document's pattern too). */
export const providerPrefixes: Readonly<Record<string, Provider>> = {
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

export function resolveProvider(msisdn: Msisdn): Provider | undefined {
  // msisdnSchema's rule without a zod parse: this runs on every call.
  if (typeof msisdn !== 'string' || !MSISDN_WIRE_FORMAT.test(msisdn)) return undefined;
  return providerOfWellFormed(msisdn);
}

function providerOfWellFormed(msisdn: Msisdn): Provider | undefined {
  return providerPrefixes[msisdn.slice(3, 5)];
}

/** Malformed and unsupported get their own messages, as the platform's; the format aborts first. */
export const payableMsisdnSchema = msisdnSchema.refine((value) => providerOfWellFormed(value), {
  error: 'The msisdn does not belong to a supported mobile provider.',
});
