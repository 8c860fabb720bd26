import type { z } from 'zod';
import { emailSchema, registerRequestSchema } from '../schemas/account.js';
import { amountSchema } from '../schemas/amount.js';
import { engineDateSchema } from '../schemas/engine-date.js';
import { msisdnSchema } from '../schemas/msisdn.js';
import { payableMsisdnSchema } from '../schemas/provider.js';
import type { JsonSchema } from './types.js';

/** The rules `.refine` checks carry, which `z.toJSONSchema` drops, keyed by the shared schema. */
export const schemaAnnotations = new Map<z.core.$ZodType, JsonSchema>([
  [
    amountSchema,
    {
      description:
        'Tanzanian shillings (TZS) as a JSON number: positive, finite, at most two decimal ' +
        'places. Never rounded: a value that would need rounding is rejected (422).',
      exclusiveMinimum: 0,
    },
  ],
  [
    // No `format: email`: the platform accepts the untrimmed input it lower-cases and trims.
    emailSchema,
    { description: 'An email address; surrounding spaces and case do not matter.' },
  ],
  [
    // An account's name and a payout's: one schema.
    registerRequestSchema.shape.name,
    {
      description:
        'A name as a person writes it, 1–255 characters once trimmed; no control characters ' +
        '(U+0000–U+001F, tab included, U+007F–U+009F): such a name is rejected (422).',
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
        'belong to a mobile network: Vodacom 74/75/76/79, Airtel 68/69/78, Tigo/Yas ' +
        '65/67/71/77, Halotel 61/62, TTCL 73.',
    },
  ],
  [
    engineDateSchema,
    {
      description:
        'The engine timestamp YYYY-MM-DD HH:MM:SS in East Africa Time (UTC+3); it must name ' +
        'a real instant.',
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    },
  ],
]);
