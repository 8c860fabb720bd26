import { describe, expect, it } from 'vitest';
import { canonicalJson, dedupKeyOf } from '../../src/callbacks/parse-callback.js';
import type { CallbackClaim } from '../../src/references/inbox/types.js';

// Dedup keys are stored: a callback redelivered after an upgrade must get the same key, so the
// canonical text and the hash are pinned to what earlier versions computed.
const body = {
  status: true,
  data: {
    paymentReference: 'ENG1',
    amount: 15000.5,
    list: [3, { b: null, a: 'x"y' }],
    nested: { z: 1, y: [] },
  },
  controlNumber: '990001',
  external_reference: null,
  'ü key': 'ü',
};
const claim: CallbackClaim = {
  status: 'success',
  amount: 15000.5,
  paymentReference: 'ENG1',
  controlNumber: '990001',
  externalReference: null,
  transactionId: null,
  merchantReferenceHint: null,
};

describe('the dedup key', () => {
  it('is the canonical JSON earlier versions wrote: keys sorted at every level', () => {
    expect(canonicalJson(body)).toBe(
      '{"controlNumber":"990001","data":{"amount":15000.5,"list":[3,{"a":"x\\"y","b":null}],"nested":{"y":[],"z":1},"paymentReference":"ENG1"},"external_reference":null,"status":true,"ü key":"ü"}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined, 'a'])).toBe('[null,"a"]');
  });

  it('is the SHA-256 earlier versions stored, whatever the key order', () => {
    const pinned = '8eedaff412d81809546f2a8d7befc1b52cbf3d9334b776e7ac60f6e576c80059';
    expect(dedupKeyOf(claim, body)).toBe(pinned);
    const reordered = JSON.parse(
      '{"ü key":"ü","external_reference":null,"controlNumber":"990001","data":{"nested":{"y":[],"z":1},"list":[3,{"a":"x\\"y","b":null}],"amount":15000.5,"paymentReference":"ENG1"},"status":true}',
    );
    expect(dedupKeyOf(claim, reordered)).toBe(pinned);
    expect(dedupKeyOf({ ...claim, status: 'failed' }, body)).not.toBe(pinned);
  });
});
