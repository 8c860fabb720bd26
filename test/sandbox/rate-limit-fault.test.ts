import { afterEach, describe, expect, it } from 'vitest';
import { isRateLimitError, MemoryReferenceStore } from '../../src/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// The `rateLimit` fault: the platform's 429 with Retry-After on demand, so the SDK's and the
// reconciler's back-off can be watched against the sandbox itself (docs/sandbox.md, Faults).

let harness: Harness;
afterEach(() => harness.close());

async function post(path: string, body: unknown) {
  const response = await fetch(`${harness.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const login = () => post('/api/sandbox/login', accounts.collection);

describe('the rateLimit fault', () => {
  it('answers the next N platform requests 429 with Retry-After, counting down; the control API is never limited', async () => {
    harness = await startHarness();
    await harness.control('faults', { rateLimit: { next: 2, retryAfterSeconds: 7 } });

    const first = await login();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(first.body).toEqual({ message: 'Too Many Attempts.', code: 'rate_limited' });
    // The control API answers in between, and shows what is left.
    expect(await harness.control('faults')).toEqual({
      faults: { rateLimit: { next: 1, retryAfterSeconds: 7 } },
    });
    expect((await login()).status).toBe(429);
    const third = await login();
    expect(third.status).toBe(200);
    expect(third.headers.get('retry-after')).toBeNull();
  });

  it('a refused money call moved nothing: the payout is not in the book and the wallet is whole', async () => {
    harness = await startHarness();
    await harness.control('wallets/credit', {
      product: 'disbursement',
      email: accounts.disbursement.email,
      amount: 100_000,
    });
    const pesakit = harness.client({ store: new MemoryReferenceStore() });
    await pesakit.disbursement.user(); // logs in before the fault
    await harness.control('faults', { rateLimit: { next: 1 } });
    const refused = await pesakit.disbursement
      .pay({ msisdn: '255754123456', amount: 5_000, name: 'Asha' }, { merchantReference: 'rl-1' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isRateLimitError(refused)).toBe(true);
    expect((refused as { retryAfterMs?: number }).retryAfterMs).toBe(1_000);
    expect((await pesakit.disbursement.payments()).data).toEqual([]);
    expect(
      harness.sandbox.inspect.wallet('disbursement', accounts.disbursement.email)?.balance,
    ).toBe(100_000);
  });

  it("the SDK waits the platform's Retry-After and retries a safe call once the limit lifts", async () => {
    harness = await startHarness();
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 1_000, msisdn: '255754123456' },
      { merchantReference: 'rl-2' },
    );
    const retries: { status?: number | undefined; delayMs: number }[] = [];
    pesakit.on('retry', (event) => retries.push(event));
    await harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 1 } });
    const status = await pesakit.collection.status(payment.controlNumber);
    expect(status.data.status).toBe('pending');
    expect(retries).toEqual([expect.objectContaining({ status: 429, delayMs: 1_000 })]);
  });

  it('the reconciler pauses as a whole for the Retry-After, then settles what is due', async () => {
    harness = await startHarness();
    const store = new MemoryReferenceStore();
    const pesakit = harness.client({ store });
    const references = ['rl-3', 'rl-4', 'rl-5'];
    for (const merchantReference of references) {
      const payment = await pesakit.collection.initiateMno(
        { amount: 2_000, msisdn: '255754123456' },
        { merchantReference },
      );
      await harness.control('collection/settle', {
        ref_id: payment.controlNumber,
        outcome: 'success',
      });
    }
    await harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 1 } });
    const reconciler = pesakit.createReconciler({ concurrency: 3 });
    const pauses: number[] = [];
    reconciler.on('paused', ({ ms }) => pauses.push(ms));
    const summary = await reconciler.runOnce({ force: true });
    await reconciler.close();
    expect(pauses).toEqual([1_000]);
    expect(summary).toMatchObject({ checked: 3, settled: 3, errors: 0 });
  });

  it("never limits the engine's own settlement: a collection settles while the fault is on, and no 429 is used up", async () => {
    harness = await startHarness();
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 3_000, msisdn: '255754123456' },
      { merchantReference: 'rl-engine' },
    );
    await harness.control('faults', { rateLimit: { next: 3 } });
    const settled = (await harness.control('collection/settle', {
      ref_id: payment.controlNumber,
      outcome: 'success',
    })) as { status?: string };
    expect(settled.status).toBe('success');
    expect(harness.sandbox.inspect.collection(payment.controlNumber)?.status).toBe('success');
    expect(await harness.control('faults')).toEqual({ faults: { rateLimit: { next: 3 } } });
  });

  it('refuses values out of range, naming the field, and changes nothing', async () => {
    harness = await startHarness();
    for (const [rateLimit, field] of [
      [{ next: -1 }, 'rateLimit.next'],
      [{ next: 1.5 }, 'rateLimit.next'],
      [{ retryAfterSeconds: 3601 }, 'rateLimit.retryAfterSeconds'],
      [{ bogus: 1 }, 'rateLimit'],
    ] as const) {
      const answer = await post('/api/sandbox/_control/faults', { rateLimit });
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.errors)).toEqual([field]);
    }
    expect(await harness.control('faults')).toEqual({ faults: {} });
    expect((await login()).status).toBe(200);
  });
});
