import { hash } from 'node:crypto';
import secureJsonParse from 'secure-json-parse';
import type { z } from 'zod';
import type { CallbackClaim } from '../references/inbox/types.js';
import { engineCallbackSchema, merchantCallbackSchema } from '../schemas/collection.js';
import { fieldErrorsFrom } from '../schemas/error-body.js';

export interface ParsedCallback {
  text: string;
  claim: CallbackClaim;
  dedupKey: string;
}

export type ParseResult =
  | { ok: true; callback: ParsedCallback }
  | { ok: false; errors: Record<string, string[]> };

/** A body as a claim: merchant callback or bare engine payload; JSON via secure-json-parse. */
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
    } catch (error) {
      // JSON.parse recurses: a deep enough body overflows the stack before the depth check.
      if (error instanceof RangeError) return tooDeep();
      return { ok: false, errors: { body: ['The request body must be valid JSON.'] } };
    }
    if (nestedDeeperThan(value)) return tooDeep();
  } else if (body === undefined || body === null) {
    return { ok: false, errors: { body: ['The request body must be a JSON object.'] } };
  } else {
    // A framework parsed it already; keep the closest thing to the raw text we can.
    if (nestedDeeperThan(body)) return tooDeep();
    value = body;
    text = JSON.stringify(body);
  }
  return claimBySchemas(value, text, merchantReferenceHint);
}

function tooDeep(): ParseResult {
  return {
    ok: false,
    errors: {
      body: [`The request body is nested more than ${MAX_CALLBACK_NESTING} levels deep.`],
    },
  };
}

function claimBySchemas(
  value: unknown,
  text: string,
  merchantReferenceHint: string | null,
): ParseResult {
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

/** hash(reference + claimed status + normalised body), byte-stable: no delivery id is sent. */
export function dedupKeyOf(claim: CallbackClaim, body: unknown): string {
  return hash('sha256', `${claim.paymentReference}\n${claim.status}\n${canonicalJson(body)}`);
}

/** JSON with keys sorted at every level (array holes stay empty, as `join` leaves them). */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    return `[${Array.from(value, (_, index) => (index in value ? canonicalJson(value[index]) : '')).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${fields.join(',')}}`;
}

/** The deepest nesting a callback body may have (the platform's have two); deeper is a 422. */
const MAX_CALLBACK_NESTING = 32;

/** Iterative, so a hostile body cannot overflow the stack here. A cycle is too deep. */
function nestedDeeperThan(value: unknown): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_CALLBACK_NESTING) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
