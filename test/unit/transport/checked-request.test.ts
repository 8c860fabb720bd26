import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { isPesakitError, isRequestValidationError } from '../../../src/errors/index.js';
import { origin, purchase, recordEvents } from './platform.js';

// Transport.prepare checks a request as `check` does and keeps the result; sendChecked sends
// exactly that (the money path's body is parsed once).
const purchasePath = '/api/sandbox/airtime/customer/payments';
const answer = {
  message: 'Purchase accepted',
  status: 'pending',
  reference: 'AIR-1',
  amount: purchase.amount,
  msisdn: purchase.msisdn,
};

function transport() {
  const t = new Transport({ baseUrl: origin, maxRetries: 0 });
  t.setToken('airtime', 'tok');
  return t;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Transport.prepare and sendChecked', () => {
  it('sends the checked body, as request would', async () => {
    let sent: unknown;
    const scope = nock(origin)
      .post(purchasePath, (body) => {
        sent = body;
        return true;
      })
      .reply(200, answer);
    const t = transport();
    const events = recordEvents(t);
    const checked = t.prepare('airtimePurchase', { body: purchase });
    expect(checked).toMatchObject({ id: 'airtimePurchase', method: 'POST', path: purchasePath });
    expect(events.request).toHaveLength(0);
    const result = await t.sendChecked(checked);
    expect(scope.isDone()).toBe(true);
    expect(sent).toEqual(purchase);
    expect(result.status).toBe('pending');
    expect(result.lastResponse.status).toBe(200);
  });

  it('refuses what request refuses, before anything is sent', async () => {
    const t = transport();
    const bad = { body: { msisdn: '0744123456', amount: -5 } } as never;
    const fromRequest = await t.request('airtimePurchase', bad).catch((e: unknown) => e);
    let fromPrepare: unknown;
    try {
      t.prepare('airtimePurchase', bad);
    } catch (error) {
      fromPrepare = error;
    }
    expect(isRequestValidationError(fromPrepare)).toBe(true);
    expect((fromPrepare as Error).message).toBe((fromRequest as Error).message);
    const aborted = AbortSignal.abort(new Error('stop'));
    expect(() => t.prepare('airtimePurchase', { body: purchase, signal: aborted })).toThrow(
      expect.objectContaining({ name: 'RequestAbortedError' }),
    );
  });

  it('sends only what this transport prepared', async () => {
    const scope = nock(origin).post(purchasePath).reply(200, answer);
    const other = transport().prepare('airtimePurchase', { body: purchase });
    const forged = { id: 'airtimePurchase', method: 'POST', path: purchasePath } as const;
    const t = transport();
    for (const checked of [other, forged]) {
      let error: unknown;
      try {
        await t.sendChecked(checked);
      } catch (caught) {
        error = caught;
      }
      expect(isPesakitError(error)).toBe(true);
      expect((error as Error).message).toMatch(/transport\.prepare first/);
    }
    expect(scope.isDone()).toBe(false);
  });
});
