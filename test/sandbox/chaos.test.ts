import { afterEach, describe, expect, it } from 'vitest';
import type { ChaosOptions, SandboxOptions } from '../../src/sandbox/index.js';
import { bearer, field, type RunningSandbox, startSandbox } from './support.js';

const payout = (n: number) => ({ msisdn: '255712345678', amount: 1000 + n, name: `Payee ${n}` });
const PAY = '/api/sandbox/disbursement/payment';

let running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()));
  running = [];
});

async function sandboxWith(chaos: ChaosOptions, options: SandboxOptions = {}) {
  const s = await startSandbox({ chaos, ...options });
  running.push(s);
  // Accounts and logins are set up with chaos paused, so every run starts alike.
  await s.control('chaos', { paused: true });
  const token = await s.account('disbursement', 'shop@example.tz', 10_000_000);
  await s.control('chaos', { paused: false });
  return { s, token };
}

/** Sends the payouts in the order given, each with its merchant reference; never waits long. */
async function pay(s: RunningSandbox, token: string, numbers: readonly number[]) {
  await Promise.all(
    numbers.map((n) =>
      fetch(`${s.url}${PAY}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-pesakit-merchant-reference': `pay-${n}`,
          ...bearer(token),
        },
        body: JSON.stringify(payout(n)),
        signal: AbortSignal.timeout(5000),
      }).then(
        (answer) => answer.text(),
        () => undefined,
      ),
    ),
  );
}

const drawnFaults = (s: RunningSandbox) =>
  s.sandbox.inspect
    .chaos()
    .map(
      ({ reference, attempt, fault, detail }) => `${reference} ${attempt} ${fault} ${detail ?? ''}`,
    )
    .sort();

describe('chaos mode: draws come from the seed and the request, not the arrival order', () => {
  it('draws the same faults for the same payments, sent in another order and at once', async () => {
    const numbers = Array.from({ length: 40 }, (_, n) => n);
    const chaos = { seed: 42, rate: 0.5, lateMs: 50 };
    const first = await sandboxWith(chaos);
    await pay(first.s, first.token, numbers);
    const second = await sandboxWith(chaos);
    await pay(second.s, second.token, [...numbers].reverse());
    expect(drawnFaults(first.s).length).toBeGreaterThan(5);
    expect(drawnFaults(second.s)).toEqual(drawnFaults(first.s));
    // Another seed draws otherwise.
    const other = await sandboxWith({ ...chaos, seed: 43 });
    await pay(other.s, other.token, numbers);
    expect(drawnFaults(other.s)).not.toEqual(drawnFaults(first.s));
  });

  it('counts attempts: a payment sent again draws afresh, the same way in every run', async () => {
    const runs = [];
    for (let run = 0; run < 2; run += 1) {
      const { s, token } = await sandboxWith({
        seed: 'again',
        rate: 0.5,
        faults: ['error_before'],
      });
      for (let attempt = 0; attempt < 6; attempt += 1) await pay(s, token, [1]);
      runs.push(s.sandbox.inspect.chaos().map((entry) => entry.attempt));
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(new Set(runs[0]).size).toBe(runs[0]?.length);
  });
});

describe('chaos mode: the faults', () => {
  it('an injected 5xx says so in a header, and nothing happened', async () => {
    const { s, token } = await sandboxWith({ seed: 1, rate: 1, faults: ['error_before'] });
    const answer = await s.call('POST', PAY, payout(1), {
      ...bearer(token),
      'x-pesakit-merchant-reference': 'pay-1',
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('x-pesakit-injected-fault')).toBe('error_before');
    expect(field(answer, 'code')).toBe('injected_fault');
    expect(s.sandbox.inspect.requests()).toEqual([]);
    expect(s.sandbox.inspect.wallet('disbursement', 'shop@example.tz')?.balance).toBe(10_000_000);
  });

  it('429 with Retry-After before acting', async () => {
    const { s, token } = await sandboxWith({ seed: 1, rate: 1, faults: ['rate_limit'] });
    const answer = await s.call('POST', PAY, payout(1), bearer(token));
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(s.sandbox.inspect.requests()).toEqual([]);
  });

  it('a cut before acting leaves no transaction; a cut after acting leaves one, unanswered', async () => {
    const before = await sandboxWith({ seed: 1, rate: 1, faults: ['cut_before'] });
    await expect(before.s.call('POST', PAY, payout(1), bearer(before.token))).rejects.toThrow();
    expect(before.s.sandbox.inspect.requests()).toEqual([]);

    const after = await sandboxWith({ seed: 1, rate: 1, faults: ['cut_after'] });
    await expect(
      after.s.call('POST', PAY, payout(2), {
        ...bearer(after.token),
        'x-pesakit-merchant-reference': 'pay-2',
      }),
    ).rejects.toThrow();
    expect(after.s.sandbox.inspect.requests()).toMatchObject([
      { merchant_reference: 'pay-2', amount: 1002, outcome: 'completed', product: 'disbursement' },
    ]);
  });

  it('a late answer comes after acting, past the client’s timeout', async () => {
    const { s, token } = await sandboxWith({
      seed: 1,
      rate: 1,
      faults: ['late_answer'],
      lateMs: 400,
    });
    const started = Date.now();
    const answer = await s.call('POST', PAY, payout(1), bearer(token));
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(s.sandbox.inspect.requests()).toHaveLength(1);
  });

  it('lies only when named: the default faults hold no contradiction', async () => {
    const { s } = await sandboxWith({ seed: 7 });
    expect(s.sandbox.inspect.chaosSettings()).toMatchObject({ enabled: true, rate: 0.1 });
    const faults = (s.sandbox.inspect.chaosSettings() as { faults: string[] }).faults;
    expect(faults).not.toContain('contradict_answer');
    expect(faults).not.toContain('contradict_history');
    expect(faults).toContain('cut_after');
  });

  it('a named lie contradicts the answer while the book keeps the truth', async () => {
    const { s, token } = await sandboxWith({ seed: 3, rate: 1, faults: ['contradict_answer'] });
    const answer = await s.call('POST', PAY, payout(1), bearer(token));
    const echoed = field(answer, 'payment') as Record<string, unknown>;
    const [entry] = s.sandbox.inspect.chaos();
    const truth = (await s.control('transactions', undefined, 'GET')).body as {
      transactions: Array<Record<string, unknown>>;
    };
    expect(entry?.fault).toBe('contradict_answer');
    const lied = entry?.detail as string;
    expect(echoed[lied]).not.toEqual(truth.transactions[0]?.[lied] ?? 'completed');
    expect(truth.transactions[0]).toMatchObject({ amount: 1001, status: 'completed' });
  });

  it('drops a callback by draw, and logs the draw on the timeline', async () => {
    const s = await startSandbox({
      chaos: { seed: 5, rate: 1, faults: ['callback_drop'] },
      autoSettle: false,
    });
    running.push(s);
    await s.control('chaos', { paused: true });
    const token = await s.account('collection', 'shop@example.tz');
    await s.control('chaos', { paused: false });
    const started = await s.call(
      'POST',
      '/api/sandbox/initiate-payment/bank/',
      { amount: 5000, callback_url: 'http://127.0.0.1:9/callback' },
      { ...bearer(token), 'x-pesakit-merchant-reference': 'col-1' },
    );
    expect(started.status).toBe(200);
    await s.control('collection/settle', {
      ref_id: field(started, 'controlNumber'),
      outcome: 'success',
    });
    const deliveries = s.sandbox.inspect.deliveries();
    expect(deliveries).toMatchObject([{ outcome: 'dropped', attempt: 0 }]);
    expect(s.sandbox.inspect.chaos().at(-1)).toMatchObject({
      on: 'callback',
      fault: 'callback_drop',
      target: 'collection.settled',
    });
  });
});

describe('chaos mode: callbacks', () => {
  async function settledCollection(faults: ChaosOptions['faults']) {
    const s = await startSandbox({
      chaos: { seed: 5, rate: 1, faults, callbackDelayMs: 300 },
      callbackSchedule: [],
    });
    running.push(s);
    await s.control('chaos', { paused: true });
    const token = await s.account('collection', 'shop@example.tz');
    await s.control('chaos', { paused: false });
    const started = await s.call(
      'POST',
      '/api/sandbox/initiate-payment/bank/',
      { amount: 5000, callback_url: 'http://127.0.0.1:9/callback' },
      { ...bearer(token), 'x-pesakit-merchant-reference': 'col-1' },
    );
    const settledAt = Date.now();
    await s.control('collection/settle', {
      ref_id: field(started, 'controlNumber'),
      outcome: 'success',
    });
    await s.sandbox.idle();
    return { s, settledAt };
  }

  it('a duplicated callback is sent twice, as two deliveries', async () => {
    const { s } = await settledCollection(['callback_duplicate']);
    const deliveries = s.sandbox.inspect.deliveries();
    expect(deliveries).toHaveLength(2);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(2);
    expect(deliveries.every((delivery) => delivery.attempt === 1)).toBe(true);
  });

  it('a delayed callback is held callbackDelayMs before its first attempt', async () => {
    const { s, settledAt } = await settledCollection(['callback_delay']);
    expect(s.sandbox.inspect.deliveries()).toHaveLength(1);
    expect(Date.now() - settledAt).toBeGreaterThanOrEqual(290);
    expect(s.sandbox.inspect.chaos().at(-1)).toMatchObject({ fault: 'callback_delay' });
  });
});

describe('chaos mode: the control API', () => {
  it('pauses and resumes the draws; the timeline pages', async () => {
    const { s, token } = await sandboxWith({
      seed: 1,
      rate: 1,
      faults: ['late_answer'],
      lateMs: 1,
    });
    await pay(s, token, [1, 2, 3]);
    await s.control('chaos', { paused: true });
    await pay(s, token, [4, 5]);
    const paused = await s.control('chaos?limit=2', undefined, 'GET');
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({
      chaos: { paused: true, drawn: { late_answer: 3 } },
      total: 3,
      next: 2,
      dropped: 0,
    });
    expect((paused.body as { timeline: unknown[] }).timeline).toHaveLength(2);
    const rest = await s.control('chaos?after=2', undefined, 'GET');
    expect(rest.body).toMatchObject({ timeline: [{ seq: 3 }], next: null });
    await s.control('chaos', { paused: false });
    await pay(s, token, [6]);
    expect(s.sandbox.inspect.chaos()).toHaveLength(4);
  });

  it('refuses a bad body naming the field, and a pause without chaos mode', async () => {
    const { s } = await sandboxWith({ seed: 1 });
    const bad = await s.control('chaos', { paused: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      errors: { paused: ['The paused field must be true or false.'] },
    });
    const plain = await startSandbox();
    running.push(plain);
    const off = await plain.control('chaos', { paused: true });
    expect(off.status).toBe(409);
    expect(field(off, 'code')).toBe('chaos_off');
    const page = await plain.control('chaos?limit=0', undefined, 'GET');
    expect(page.status).toBe(422);
    expect(page.body).toMatchObject({ errors: { limit: ['The limit must be at least 1.'] } });
  });

  it('refuses bad options naming them', async () => {
    await expect(startSandbox({ chaos: { seed: 1, rate: 2 } })).rejects.toThrow(
      /chaos\.rate: The chaos\.rate may not be greater than 1\./,
    );
    await expect(
      startSandbox({ chaos: { seed: 1, faults: ['meteor'] as unknown as ['cut_after'] } }),
    ).rejects.toThrow(/chaos\.faults\.0: Each of chaos\.faults must be one of error_before/);
  });
});

describe('what the sandbox records for a verifier', () => {
  it('logs every money request acted on, with the merchant reference header', async () => {
    const s = await startSandbox();
    running.push(s);
    const collection = await s.account('collection', 'shop@example.tz');
    const airtime = await s.account('airtime', 'shop@example.tz', 50_000);
    await s.call(
      'POST',
      '/api/sandbox/initiate-payment/mno/',
      { amount: 2500, msisdn: '255712345678' },
      { ...bearer(collection), 'x-pesakit-merchant-reference': 'col-1' },
    );
    await s.call(
      'POST',
      '/api/sandbox/airtime/customer/payments',
      { amount: 1000, msisdn: '255712345678' },
      { ...bearer(airtime), 'x-pesakit-merchant-reference': 'air-1' },
    );
    const requests = await s.control('requests', undefined, 'GET');
    expect(requests.body).toMatchObject({
      requests: [
        { product: 'collection', operation: 'mno', merchant_reference: 'col-1', amount: 2500 },
        { product: 'airtime', operation: 'airtime_purchase', merchant_reference: 'air-1' },
      ],
      next: null,
      total: 2,
      dropped: 0,
    });
    const listed = await s.control('transactions?kind=collection', undefined, 'GET');
    expect(listed.body).toMatchObject({
      transactions: [{ kind: 'collection', product: 'collection', merchant_reference: 'col-1' }],
    });
    const ledger = await s.control('ledger', undefined, 'GET');
    expect(ledger.body).toMatchObject({
      entries: [
        { kind: 'credit', amount: 50_000, product: 'airtime' },
        { kind: 'airtime', amount: -1000, product: 'airtime', email: 'shop@example.tz' },
      ],
    });
  });

  it('refuses a malformed merchant reference header naming it; nothing happens', async () => {
    const s = await startSandbox();
    running.push(s);
    const token = await s.account('disbursement', 'shop@example.tz', 50_000);
    const answer = await s.call('POST', PAY, payout(1), {
      ...bearer(token),
      'x-pesakit-merchant-reference': 'has spaces',
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      errors: { 'x-pesakit-merchant-reference': [expect.stringMatching(/1–64 letters/)] },
    });
    expect(s.sandbox.inspect.requests()).toEqual([]);
  });

  it('pages the delivery log', async () => {
    const s = await startSandbox({ logLimit: 100, callbackSchedule: [] });
    running.push(s);
    const token = await s.account('collection', 'shop@example.tz');
    for (let n = 0; n < 3; n += 1) {
      const started = await s.call(
        'POST',
        '/api/sandbox/initiate-payment/bank/',
        { amount: 1000 + n, callback_url: 'http://127.0.0.1:9/callback' },
        bearer(token),
      );
      if (started.status !== 200) throw new Error(started.text);
      await s.control('collection/settle', {
        ref_id: field(started, 'controlNumber'),
        outcome: 'success',
      });
    }
    await s.sandbox.idle();
    const first = await s.control('deliveries?limit=2', undefined, 'GET');
    expect(first.body).toMatchObject({ next: 2, total: 3, dropped: 0 });
    const second = await s.control('deliveries?after=2', undefined, 'GET');
    expect(second.body).toMatchObject({ deliveries: [{ seq: 3 }], next: null });
  });
});

describe('a paged log', () => {
  it('keeps its limit, dropping the oldest and counting them, and pages from any cursor', async () => {
    const { PagedLog } = await import('../../src/sandbox/state/paged-log.js');
    const log = new PagedLog<{ n: number }>(3);
    for (let n = 1; n <= 5; n += 1) log.append({ n });
    expect(log.page(0, 10)).toEqual({
      items: [
        { n: 3, seq: 3 },
        { n: 4, seq: 4 },
        { n: 5, seq: 5 },
      ],
      next: null,
      total: 5,
      dropped: 2,
    });
    expect(log.page(3, 1)).toEqual({ items: [{ n: 4, seq: 4 }], next: 4, total: 5, dropped: 2 });
  });
});
