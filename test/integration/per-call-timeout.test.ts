import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRequestValidationError, type Pesakit } from '../../src/index.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Bad input gets a clear error and changes nothing. A call's own `timeoutMs` is checked like
// the client's: with `{ timeoutMs: -1 }` (or 0, NaN) a payment would be written, sent — the
// sandbox would take it — and reported `unknown`, because the timer fired at once.

let harness: Harness;
let pesakit: Pesakit;
beforeAll(async () => {
  harness = await startHarness();
  pesakit = harness.client();
});
afterAll(() => harness.close());

async function thrownBy(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("a call's timeoutMs that is no timeout", () => {
  it.each([-1, 0, Number.NaN, 2 ** 31])(
    'money call with timeoutMs %s: refused, nothing stored or sent',
    async (timeoutMs) => {
      const before = harness.sandbox.inspect.snapshot().collections;
      const error = await thrownBy(() =>
        pesakit.collection.initiateMno({ amount: 1000, msisdn: '255754123456' }, { timeoutMs }),
      );
      expect(isRequestValidationError(error)).toBe(true);
      expect((error as { errors: Record<string, string[]> }).errors['timeoutMs']?.[0]).toMatch(
        /timeoutMs/,
      );
      expect(harness.sandbox.inspect.snapshot().collections).toBe(before);
      expect(await pesakit.store.records.list()).toEqual([]);
    },
  );

  it('a read with timeoutMs -1 is refused the same way', async () => {
    const error = await thrownBy(() =>
      pesakit.collection.status('990000000000', { timeoutMs: -1 }),
    );
    expect(isRequestValidationError(error)).toBe(true);
  });

  it('a sensible timeoutMs still works', async () => {
    const payment = await pesakit.collection.initiateMno(
      { amount: 1000, msisdn: '255754123456' },
      { timeoutMs: 5000 },
    );
    expect(payment.record.status).toBe('pending');
  });
});
