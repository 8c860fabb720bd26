import { describe, expect, it } from 'vitest';
import {
  newAirtimeReference,
  newControlNumber,
  newEngineReference,
  newPaymentToken,
  newProviderTransactionId,
  newRefId,
  newTxnId,
} from '../../src/sandbox/references.js';

// References come from the CSPRNG: these hold the formats, that none repeats, and that digits
// stay uniform.

describe('sandbox references', () => {
  it('keep their formats', () => {
    expect(newControlNumber()).toMatch(/^99\d{10}$/);
    expect(newEngineReference()).toMatch(/^ENG[0-9A-F]{16}$/);
    expect(newRefId()).toMatch(/^DSB[0-9A-F]{16}$/);
    expect(newAirtimeReference()).toMatch(/^AIR[0-9A-F]{16}$/);
    expect(newTxnId()).toMatch(/^TXN\d{12}$/);
    expect(newProviderTransactionId()).toMatch(/^TX\d{12}$/);
    expect(newPaymentToken()).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('never repeat', () => {
    const tokens = new Set<string>();
    const engine = new Set<string>();
    for (let i = 0; i < 20_000; i += 1) {
      tokens.add(newPaymentToken());
      engine.add(newEngineReference());
    }
    expect(tokens.size).toBe(20_000);
    expect(engine.size).toBe(20_000);
  });

  it('draw every decimal digit equally often (chi-square)', () => {
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 50_000; i += 1) {
      for (const digit of newControlNumber().slice(2)) counts[Number(digit)]! += 1;
    }
    // 500,000 digits, 50,000 expected each. Uniform digits give a chi-square (9 degrees of
    // freedom) above 40 about once in 250,000 runs; the bias of a plain `byte % 10` (bytes
    // 250–255 folded onto 0–5) gives about 180.
    const chiSquare = counts.reduce((sum, count) => sum + (count - 50_000) ** 2 / 50_000, 0);
    expect(chiSquare).toBeLessThan(40);
  });
});
