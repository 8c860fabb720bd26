import { afterEach, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { isRateLimitError, MemoryReferenceStore, type TransactionRecord } from '../../src/index.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// A money call the platform answers 429 (docs/errors.md, "A money call answered 429"). A 429 is
// a refusal before processing: nothing moved, so the record is `failed` and the call is not
// retried (the spec shows no rate limits, so it never promises that a throttled request was
// not processed: DESIGN decision 3). But a plain "failed" makes a merchant tell the customer
// the payment failed, when a new attempt seconds later would go through: the record's reason
// says `rate_limited` and when to try again, and onFailed sees it.

let harness: Harness;
afterEach(() => harness.close());

type MoneyCall = (pesakit: Pesakit, merchantReference: string) => Promise<unknown>;
const calls: Record<string, { login: (pesakit: Pesakit) => Promise<unknown>; send: MoneyCall }> = {
  'collection initiate': {
    login: (pesakit) => pesakit.collection.status('none').catch(() => undefined),
    send: (pesakit, merchantReference) =>
      pesakit.collection.initiateMno(
        { amount: 15_000, msisdn: '255754123456' },
        { merchantReference },
      ),
  },
  payout: {
    login: (pesakit) => pesakit.disbursement.user(),
    send: (pesakit, merchantReference) =>
      pesakit.disbursement.pay(
        { msisdn: '255754123456', amount: 5_000, name: 'Asha' },
        { merchantReference },
      ),
  },
  'airtime purchase': {
    login: (pesakit) => pesakit.airtime.user(),
    send: (pesakit, merchantReference) =>
      pesakit.airtime.purchase({ msisdn: '255754123456', amount: 1_000 }, { merchantReference }),
  },
};

describe.each(Object.keys(calls))('a %s answered 429', (name) => {
  const call = calls[name]!;
  const reference = name.replace(' ', '-');

  it('is a RateLimitError; the record is failed, reason rate_limited with the wait; a new reference goes through', async () => {
    harness = await startHarness();
    for (const product of ['airtime', 'disbursement'] as const) {
      await harness.control('wallets/credit', {
        product,
        email: product === 'airtime' ? 'airtime@duka.co.tz' : 'payouts@duka.co.tz',
        amount: 100_000,
      });
    }
    const store = new MemoryReferenceStore();
    const pesakit = harness.client({ store });
    await call.login(pesakit); // logged in before the fault: the money call itself meets it
    await harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 7 } });

    const refused = await call.send(pesakit, `${reference}-1`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isRateLimitError(refused)).toBe(true);
    expect((refused as { retryAfterMs?: number }).retryAfterMs).toBe(7_000);
    const record = await store.records.get(`${reference}-1`);
    expect(record?.status).toBe('failed');
    expect(record?.statusReason).toMatch(/^rate_limited: /);
    expect(record?.statusReason).toContain('nothing moved');
    expect(record?.statusReason).toContain('Try again after 7 s with a new merchant reference');

    // Sent once: the fault is spent, and the next attempt (a new reference) goes through.
    await expect(call.send(pesakit, `${reference}-2`)).resolves.toBeTruthy();
    expect((await store.records.get(`${reference}-2`))?.status).not.toBe('failed');
  });
});

describe('onFailed for a rate-limited money call', () => {
  it('runs, with the record whose reason says rate_limited, so a handler can tell it apart', async () => {
    harness = await startHarness();
    const store = new MemoryReferenceStore();
    const pesakit = harness.client({ store });
    await calls['collection initiate']!.login(pesakit);
    await harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 2 } });
    await expect(calls['collection initiate']!.send(pesakit, 'order-1')).rejects.toThrow();

    const failed: TransactionRecord[] = [];
    const receiver = pesakit.createCallbackReceiver({
      inboxRetention: false,
      onFailed: (record) => void failed.push(record),
    });
    receiver.start();
    await receiver.onIdle();
    await receiver.close();
    expect(failed.map((record) => record.merchantReference)).toEqual(['order-1']);
    expect(failed[0]?.statusReason).toMatch(/^rate_limited: .*Try again after 2 s/);
  });
});
