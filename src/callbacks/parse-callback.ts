import { createHash } from 'node:crypto';
import secureJsonParse from 'secure-json-parse';
import type { z } from 'zod';
import type { CallbackClaim } from '../references/inbox/types.js';
import { engineCallbackSchema, merchantCallbackSchema } from '../schemas/collection.js';
import { fieldErrorsFrom } from '../schemas/error-body.js';

/** A callback body that passed the shared schemas, with what it claims. */
export interface ParsedCallback {
  /** The body text as stored in the inbox. */
  text: string;
  claim: CallbackClaim;
  dedupKey: string;
}

export type ParseResult =
  | { ok: true; callback: ParsedCallback }
  | { ok: false; errors: Record<string, string[]> };

/**
 * Turns a received body into a claim. Accepts the merchant callback (the engine payload plus
 * `controlNumber` and `external_reference`) and the bare engine payload; which schema applies
 * is decided by whether the body carries a merchant field, so errors are about one shape.
 * JSON is parsed with secure-json-parse: `__proto__` / `constructor.prototype` are refused.
 */
export function parseCallback(body: unknown, merchantReferenceHint: string | null): ParseResult {
  let text: string;
  let value: unknown;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
    try {
      value = secureJsonParse(text, undefined, {
        protoAction: 'error',
        constructorAction: 'error',
      });
    } catch {
      return { ok: false, errors: { body: ['The request body must be valid JSON.'] } };
    }
  } else if (body === undefined || body === null) {
    return { ok: false, errors: { body: ['The request body must be a JSON object.'] } };
  } else {
    // A framework parsed it already; keep the closest thing to the raw text we can.
    value = body;
    text = JSON.stringify(body);
  }
  const isMerchantShape =
    typeof value === 'object' &&
    value !== null &&
    ('controlNumber' in value || 'external_reference' in value);
  const schema: z.ZodType<z.infer<typeof engineCallbackSchema>> = isMerchantShape
    ? merchantCallbackSchema
    : engineCallbackSchema;
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, errors: fieldErrorsFrom(parsed.error, value) };
  const payload = parsed.data as z.infer<typeof merchantCallbackSchema>;
  const claim: CallbackClaim = {
    status: payload.status ? 'success' : 'failed',
    amount: payload.data.amount,
    paymentReference: payload.data.paymentReference,
    controlNumber: payload.controlNumber ?? null,
    externalReference: payload.external_reference ?? null,
    transactionId: payload.data.transactionID,
    merchantReferenceHint,
  };
  return { ok: true, callback: { text, claim, dedupKey: dedupKeyOf(claim, value) } };
}

/**
 * hash(reference + claimed status + normalised body). The platform sends no delivery id, so a
 * redelivery is recognised by its content: the same body (keys in any order, any whitespace)
 * for the same reference and claim is one callback.
 */
export function dedupKeyOf(claim: CallbackClaim, body: unknown): string {
  return createHash('sha256')
    .update(`${claim.paymentReference}\n${claim.status}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
