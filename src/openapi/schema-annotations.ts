import { z } from 'zod';
import type { Environment } from '../core/endpoints.js';
import { resolveSandboxOptions } from '../sandbox/options.js';
import { emailSchema, registerRequestSchema } from '../schemas/account.js';
import { airtimeBulkRowResultSchema } from '../schemas/airtime-bulk.js';
import { amountSchema, MAX_AMOUNT_TZS } from '../schemas/amount.js';
import { callbackUrlSchema, collectionStatusRequestSchema } from '../schemas/collection.js';
import { disbursementRequestSchema } from '../schemas/disbursement.js';
import { engineDateSchema } from '../schemas/engine-date.js';
import { msisdnSchema } from '../schemas/msisdn.js';
import { payableMsisdnSchema, providerPrefixes } from '../schemas/provider.js';
import type { JsonSchema } from './types.js';

/** The rules `.refine`/`.check`/`.trim` carry, which `z.toJSONSchema` drops; keyed by schema. */
export type SchemaAnnotations = ReadonlyMap<z.core.$ZodType, JsonSchema>;

/** `255` + a known operator's two digits + seven digits, from the same table the SDK resolves. */
export const PAYABLE_MSISDN_PATTERN = `^255(?:${Object.keys(providerPrefixes).sort().join('|')})\\d{7}$`;

const operators =
  'Vodacom 74/75/76/79, Airtel 68/69/78, Tigo/Yas 65/67/71/77, Halotel 61/62, TTCL 73';

// C0, DEL and C1 (Unicode's `Cc`), written as ranges: a pattern without the `u` flag reads them.
const notControl = '[^\\u0000-\\u001f\\u007f-\\u009f]';
const notControlNorSpace = '[^\\s\\u0000-\\u001f\\u007f-\\u009f]';

/**
 * zod's own e-mail rule (`z.email()`), case-insensitive as written, with the spaces the platform
 * trims allowed around it: the document accepts exactly what the sandbox accepts.
 */
const EMAIL_PATTERN = `^\\s*${z.regexes.email.source.slice(1, -1)}\\s*$`;

/** The largest amount of one request in this environment's document. */
export function documentedMaxAmount(environment: Environment): number {
  return environment === 'sandbox' ? resolveSandboxOptions().maxAmount : MAX_AMOUNT_TZS;
}

export function schemaAnnotations(environment: Environment): SchemaAnnotations {
  const maximum = documentedMaxAmount(environment);
  const maximumNote =
    environment === 'sandbox'
      ? `at most ${maximum} by default (the sandbox's \`maxAmount\` option changes it, up to ` +
        `${MAX_AMOUNT_TZS}, pesakit's own bound)`
      : `at most ${MAX_AMOUNT_TZS} (pesakit's own bound; the platform may set a lower one for ` +
        'your account)';
  return new Map<z.core.$ZodType, JsonSchema>([
    [
      amountSchema,
      {
        description:
          'Tanzanian shillings (TZS) as a JSON number: positive, finite, at most two decimal ' +
          `places, ${maximumNote}. Never rounded: a value that would need rounding is ` +
          'rejected (422).',
        exclusiveMinimum: 0,
        maximum,
        multipleOf: 0.01,
      },
    ],
    [
      emailSchema,
      {
        description:
          'An email address (the pattern is the rule the platform checks); surrounding spaces ' +
          'and case do not matter.',
        maxLength: 254,
        pattern: EMAIL_PATTERN,
      },
    ],
    [
      // An account's name and a payout's: one schema.
      registerRequestSchema.shape.name,
      {
        description:
          'A name as a person writes it, 1–255 characters once trimmed; no control characters ' +
          '(U+0000–U+001F, tab included, U+007F–U+009F): such a name is rejected (422).',
        pattern: `^${notControl}*${notControlNorSpace}${notControl}*$`,
      },
    ],
    [
      collectionStatusRequestSchema.shape.ref_id,
      {
        description: 'A control number or engine reference; surrounding spaces are trimmed.',
        pattern: '\\S',
      },
    ],
    [
      callbackUrlSchema,
      {
        description:
          'Where the platform posts the outcome: an absolute http or https URL (https in ' +
          'production).',
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$',
      },
    ],
    [
      msisdnSchema,
      { description: 'A Tanzanian mobile number: 255 followed by nine digits, no + or spaces.' },
    ],
    [
      payableMsisdnSchema,
      {
        description:
          'A Tanzanian mobile number (255 followed by nine digits) whose two digits after 255 ' +
          `belong to a mobile network: ${operators}. Another number is rejected (422).`,
        pattern: PAYABLE_MSISDN_PATTERN,
      },
    ],
    [
      disbursementRequestSchema.shape.msisdn,
      {
        description:
          `The payee's mobile number: 255 followed by nine digits, of a network (${operators}). ` +
          'The platform answers a malformed number or one of no supported network with 400, ' +
          'not 422.',
        pattern: PAYABLE_MSISDN_PATTERN,
      },
    ],
    [
      engineDateSchema,
      {
        description:
          'The engine timestamp YYYY-MM-DD HH:MM:SS in East Africa Time (UTC+3). It must name ' +
          'a real calendar date and time (no 30 February, no 24:00:00), which a pattern cannot ' +
          'say: an impossible one is rejected (422).',
        pattern:
          '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01]) (?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$',
      },
    ],
    [
      airtimeBulkRowResultSchema.shape.merchant_reference,
      {
        description:
          "The row's merchant reference, `airtime:<batch_id>:<row>`: the name the SDK gives " +
          'the same row, so a record and its row find each other.',
        pattern: '^airtime:[A-Za-z0-9_.-]{1,64}:[1-9]\\d*$',
      },
    ],
  ]);
}
