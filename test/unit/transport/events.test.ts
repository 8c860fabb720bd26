import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { airtimeUser, origin, recordEvents } from './platform.js';

const userPath = '/api/sandbox/airtime/user';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  vi.restoreAllMocks();
});
afterAll(() => nock.enableNetConnect());

function transport() {
  const t = new Transport({ baseUrl: origin, maxRetries: 1, retryDelay: { minMs: 1, maxMs: 1 } });
  t.setToken('airtime', 'tok');
  return t;
}

describe('Events report every attempt: request, response, retry, error', () => {
  it('each event names the endpoint, method, path and attempt; responses add status, duration and request id', async () => {
    nock(origin)
      .get(userPath)
      .reply(503, { message: 'Down' }, { 'x-request-id': 'r-1' })
      .get(userPath)
      .reply(200, { user: airtimeUser }, { 'x-request-id': 'r-2' });
    const t = transport();
    const events = recordEvents(t);
    await t.request('airtimeUser');
    const where = { endpoint: 'airtimeUser', method: 'GET', path: userPath };
    expect(events.request).toEqual([
      expect.objectContaining({ ...where, attempt: 1 }),
      expect.objectContaining({ ...where, attempt: 2 }),
    ]);
    expect(events.response).toEqual([
      expect.objectContaining({ ...where, attempt: 1, status: 503, requestId: 'r-1' }),
      expect.objectContaining({ ...where, attempt: 2, status: 200, requestId: 'r-2' }),
    ]);
    expect(events.retry).toEqual([
      expect.objectContaining({ ...where, attempt: 1, status: 503, requestId: 'r-1', delayMs: 1 }),
    ]);
    for (const event of [...events.response, ...events.retry]) {
      expect(event.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(events.request[0]?.headers).toMatchObject({ authorization: '[redacted]' });
  });

  it('the error event carries the error the caller receives', async () => {
    nock(origin).get(userPath).twice().reply(500, { message: 'Server Error' });
    const t = transport();
    const events = recordEvents(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(events.error).toHaveLength(1);
    expect(events.error[0]).toMatchObject({ endpoint: 'airtimeUser', attempt: 2, status: 500 });
    expect(events.error[0]?.error).toBe(error);
  });

  it('a listener that throws does not fail the call; it becomes a process warning', async () => {
    nock(origin).get(userPath).reply(200, { user: airtimeUser });
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const t = transport();
    t.events.on('response', () => {
      throw new Error('logger broke');
    });
    await expect(t.request('airtimeUser')).resolves.toMatchObject({ user: { id: 7 } });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('logger broke'));
  });
});
