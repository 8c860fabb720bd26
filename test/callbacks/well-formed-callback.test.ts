import { describe, expect, it } from 'vitest';
import {
  claimBySchemas as claimBySchemasOrErrors,
  dedupKeyOf,
  parseCallback,
} from '../../src/callbacks/parse-callback.js';
import { wellFormedCallbackClaim } from '../../src/callbacks/well-formed-callback.js';
import type { CallbackClaim } from '../../src/references/inbox/types.js';
import { engineCallback, merchantCallback } from './payloads.js';

// The acknowledgement path claims a callback exactly as the platform sends it without zod
// (src/callbacks/well-formed-callback.ts). It may be stricter than the shared schemas, never
// looser: whatever it accepts, the schemas accept with the same claim; whatever it refuses goes
// through the schemas, which alone decide the 422.

/** The claim the shared schemas give (the path every body took before), or undefined. */
function claimBySchemas(value: unknown, hint: string | null): CallbackClaim | undefined {
  const bySchemas = claimBySchemasOrErrors(value, hint);
  return bySchemas.ok ? bySchemas.claim : undefined;
}

const merchant = () =>
  merchantCallback({ paymentReference: 'ENG1', controlNumber: '991234', amount: 15000 });
const engine = () => engineCallback({ paymentReference: 'ENG2', amount: 2500.5 });

/** Values a field may arrive with: right, wrong and borderline. */
const candidates: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'MNO',
  0,
  -1,
  0.5,
  1,
  15000,
  12.34,
  12.345,
  0.1 + 0.2,
  1e-7,
  999999999.99,
  1_000_000_000,
  1_000_000_000.01,
  1e21,
  Number.POSITIVE_INFINITY,
  true,
  false,
  [],
  ['x'],
  {},
  { amount: 1 },
  '255754123456',
  '255',
  '+255754123456',
  '2557541234a6',
  '2024-06-01 12:30:00',
  '2024-02-29 23:59:59',
  '2023-02-29 10:00:00',
  '2100-02-29 10:00:00',
  '2000-02-29 10:00:00',
  '2024-04-31 10:00:00',
  '2024-13-01 10:00:00',
  '2024-00-10 10:00:00',
  '2024-06-00 10:00:00',
  '2024-06-01 24:00:00',
  '2024-06-01 23:60:00',
  '2024-06-01 23:59:60',
  '0099-06-01 10:00:00',
  '0100-06-01 10:00:00',
  '2024-06-01T12:30:00',
  '2024-06-01 12:30:00 ',
  '2024-6-1 12:30:00',
];

const topFields = [
  'message',
  'code',
  'status',
  'description',
  'data',
  'controlNumber',
  'external_reference',
];
const dataFields = [
  'providerType',
  'providerName',
  'amount',
  'paymentReference',
  'payerMobile',
  'transactionDate',
  'transactionID',
  'transactionChannel',
];

/** Every body with one field set to one candidate (or removed), for both shapes. */
function* variants(): Generator<Record<string, unknown>> {
  for (const base of [merchant, engine]) {
    yield base();
    for (const field of topFields) {
      for (const candidate of candidates) {
        const body: Record<string, unknown> = base();
        if (candidate === undefined) delete body[field];
        else body[field] = candidate;
        yield body;
      }
    }
    for (const field of dataFields) {
      for (const candidate of candidates) {
        const body: Record<string, unknown> = base();
        const data = { ...(body['data'] as Record<string, unknown>) };
        if (candidate === undefined) delete data[field];
        else data[field] = candidate;
        body['data'] = data;
        yield body;
      }
    }
  }
}

describe('a well-formed callback is claimed without zod', () => {
  it('claims the platform’s own bodies, merchant and engine shape, as the schemas do', () => {
    for (const body of [merchant(), engine()]) {
      const value = JSON.parse(JSON.stringify(body)) as unknown;
      const claim = wellFormedCallbackClaim(value, 'ORDER-1');
      expect(claim).toBeDefined();
      expect(claim).toEqual(claimBySchemas(value, 'ORDER-1'));
    }
  });

  it('is never looser than the schemas: what it claims, they claim the same way', () => {
    let claimed = 0;
    let refused = 0;
    for (const body of variants()) {
      // As the receiver sees it: parsed from JSON text (undefined fields vanish, Infinity → null).
      const value = JSON.parse(JSON.stringify(body)) as unknown;
      const fast = wellFormedCallbackClaim(value, null);
      const bySchemas = claimBySchemas(value, null);
      if (fast === undefined) {
        refused += 1;
        continue;
      }
      claimed += 1;
      expect(bySchemas, JSON.stringify(value)).toEqual(fast);
    }
    // Both kinds happen, so the comparison above compared something.
    expect(claimed).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('claims every variant the schemas accept, so a valid callback never takes the slow path', () => {
    // Not required for safety (a refusal only means zod decides), but a body the platform
    // could send must not fall to the slow path: every valid variant here is claimed.
    for (const body of variants()) {
      const value = JSON.parse(JSON.stringify(body)) as unknown;
      if (claimBySchemas(value, null) === undefined) continue;
      expect(wellFormedCallbackClaim(value, null), JSON.stringify(value)).toBeDefined();
    }
  });

  it('leaves the 422 to the schemas: a broken body still gets its per-field errors', () => {
    const body = merchant() as Record<string, unknown>;
    body['data'] = {
      ...(body['data'] as object),
      amount: 12.345,
      transactionDate: '2023-02-29 10:00:00',
    };
    const parsed = parseCallback(JSON.stringify(body), null);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual(['data.amount', 'data.transactionDate']);
  });

  it('gives the same dedup key as the schema path (keys are stored)', () => {
    const text = JSON.stringify(merchant());
    const parsed = parseCallback(text, 'ORDER-1');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const claim = claimBySchemas(JSON.parse(text), 'ORDER-1') as CallbackClaim;
    expect(parsed.callback.claim).toEqual(claim);
    expect(parsed.callback.dedupKey).toBe(dedupKeyOf(claim, JSON.parse(text)));
  });
});
