import { afterEach, describe, expect, it } from 'vitest';
import { CallbackDispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { FaultBoard } from '../../src/sandbox/delivery/faults.js';
import { CallbackReceiver } from './delivery-receiver.js';
import { field, PASSWORD, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());

/** An account whose existence proves that no reset happened. */
async function witness(): Promise<() => boolean> {
  await s.account('disbursement', 'witness@duka.tz', 700);
  return () => s.sandbox.inspect.wallet('disbursement', 'witness@duka.tz')?.balance === 700;
}

describe('SSRF: callback deliveries never reach the control API', () => {
  it('pay_mobile with callback_url = <sandbox>/api/sandbox/_control/reset is refused (422) and resets nothing', async () => {
    s = await startSandbox();
    const intact = await witness();
    const port = new URL(s.url).port;
    const spellings = [
      `${s.url}/api/sandbox/_control/reset`,
      `${s.url}/api/sandbox/%5Fcontrol/reset`,
      `${s.url}/api/sandbox/%255Fcontrol/reset`,
      `${s.url}//api//sandbox/_control/reset`,
      `${s.url}/api/sandbox/x/../_control/reset`,
      `${s.url}/API/Sandbox/_CONTROL/reset`,
      `http://localhost:${port}/api/sandbox/_control/reset`,
      `http://[::1]:${port}/api/sandbox/_control/reset?x=1`,
    ];
    for (const callbackUrl of spellings) {
      const answer = await s.call('POST', '/api/sandbox/pay_mobile', {
        amount: 1000,
        msisdn: '255754123456',
        callback_url: callbackUrl,
      });
      expect(answer.status, callbackUrl).toBe(422);
      expect((field(answer, 'errors') as Record<string, string[]>)['callback_url']?.[0]).toMatch(
        /control API/,
      );
    }
    const checkout = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 1000,
      callback_url: `${s.url}/api/sandbox/_control/reset`,
    });
    expect(checkout.status).toBe(422);
    expect(s.sandbox.inspect.snapshot().collections).toBe(0);
    expect(intact()).toBe(true);
  });

  it('the dispatcher itself refuses a control URL (logged failed, attempt 0), even when asked directly', async () => {
    s = await startSandbox();
    const intact = await witness();
    const dispatcher = new CallbackDispatcher({ schedule: [], faults: new FaultBoard() });
    dispatcher.enqueue({
      url: `${s.url}/api/sandbox/_control/reset`,
      payload: {},
      key: 'k',
      kind: 'collection.settled',
    });
    await dispatcher.idle();
    expect(dispatcher.log()).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        attempt: 0,
        error: expect.stringMatching(/control API/),
      }),
    ]);
    await dispatcher.close();
    expect(intact()).toBe(true);
  });

  it('the control API refuses a request marked as a sandbox delivery, even from loopback with the key', async () => {
    s = await startSandbox({ controlKey: 'k1' });
    const intact = await witness();
    const marked = await s.call(
      'POST',
      '/api/sandbox/_control/reset',
      {},
      { 'x-control-key': 'k1', 'x-pesakit-sandbox-delivery': '1' },
    );
    expect(marked.status).toBe(403);
    expect(field(marked, 'message')).toMatch(/own callback deliveries/);
    expect(intact()).toBe(true);
  });

  it('real deliveries carry the mark, so a route that forwards them to the control API gets 403', async () => {
    s = await startSandbox();
    const receiver = new CallbackReceiver();
    const callbackUrl = await receiver.listen();
    try {
      const opened = await s.call('POST', '/api/sandbox/pay_mobile', {
        amount: 1000,
        msisdn: '255754123456',
        callback_url: callbackUrl,
      });
      await s.control('collection/settle', {
        ref_id: field(opened, 'controlNumber'),
        outcome: 'success',
      });
      await s.sandbox.idle();
      expect(receiver.received[0]?.headers['x-pesakit-sandbox-delivery']).toBe('1');
    } finally {
      await receiver.close();
    }
  });
});

describe('CSRF: control POSTs need JSON and refuse other web pages', () => {
  const reset = (headers: Record<string, string>, body?: string) =>
    fetch(`${s.url}/api/sandbox/_control/reset`, {
      method: 'POST',
      headers,
      ...(body === undefined ? {} : { body }),
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { message: string },
    }));

  it('refuses a bodyless POST and a text/plain one with 415, resetting nothing', async () => {
    s = await startSandbox();
    const intact = await witness();
    const bare = await reset({});
    const plain = await reset({ 'content-type': 'text/plain' }, '{}');
    const form = await reset({ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expect([bare.status, plain.status, form.status]).toEqual([415, 415, 415]);
    expect(bare.body.message).toMatch(/Content-Type: application\/json/);
    expect(intact()).toBe(true);
  });

  it('refuses a foreign Origin and Sec-Fetch-Site cross-site / same-site with 403', async () => {
    s = await startSandbox();
    const intact = await witness();
    const json = { 'content-type': 'application/json' };
    const answers = [
      await reset({ ...json, origin: 'http://evil.example' }, '{}'),
      await reset({ ...json, origin: 'null' }, '{}'),
      await reset({ ...json, 'sec-fetch-site': 'cross-site' }, '{}'),
      await reset({ ...json, 'sec-fetch-site': 'same-site' }, '{}'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    expect(answers[0]?.body.message).toMatch(/not Origin "http:\/\/evil\.example"/);
    expect(intact()).toBe(true);
  });

  it('answers tools (no Origin) and the sandbox’s own origin; GETs need no content type', async () => {
    s = await startSandbox();
    const json = { 'content-type': 'application/json' };
    expect(
      (await reset({ ...json, origin: s.url, 'sec-fetch-site': 'same-origin' }, '{}')).status,
    ).toBe(200);
    expect((await reset(json)).status).toBe(200);
    expect((await s.control('sms', undefined, 'GET')).status).toBe(200);
    const created = await s.control('accounts', {
      product: 'collection',
      email: 'tool@duka.tz',
      password: PASSWORD,
    });
    expect(created.status).toBe(201);
  });
});
