import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { airtimeUser, origin } from './platform.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('A success carries its response: lastResponse', () => {
  it('status, x-request-id and headers with Set-Cookie redacted; not enumerable', async () => {
    nock(origin)
      .get('/api/sandbox/airtime/user')
      .reply(200, { user: airtimeUser }, { 'x-request-id': 'req-123', 'set-cookie': 's=secret' });
    const t = new Transport({ baseUrl: origin });
    t.setToken('airtime', 'tok');
    const answer = await t.request('airtimeUser');
    expect(answer.lastResponse).toMatchObject({ status: 200, requestId: 'req-123' });
    expect(answer.lastResponse.headers['set-cookie']).toBe('[redacted]');
    expect(Object.keys(answer)).toEqual(['user']);
  });
});

describe('lastResponse reads its headers on demand, and still looks like plain data', () => {
  it('requestId and headers are enumerable: spread and JSON carry them', async () => {
    nock(origin)
      .get('/api/sandbox/airtime/user')
      .reply(200, { user: airtimeUser }, { 'x-request-id': 'req-456' });
    const t = new Transport({ baseUrl: origin });
    t.setToken('airtime', 'tok');
    const { lastResponse } = await t.request('airtimeUser');
    expect({ ...lastResponse }).toMatchObject({ status: 200, requestId: 'req-456' });
    expect(JSON.parse(JSON.stringify(lastResponse))).toMatchObject({ requestId: 'req-456' });
    expect(Object.keys(lastResponse).sort()).toEqual(['headers', 'requestId', 'status']);
    expect(lastResponse.requestId).toBe('req-456');
  });

  it('no x-request-id: requestId is undefined, every time it is read', async () => {
    nock(origin).get('/api/sandbox/airtime/user').reply(200, { user: airtimeUser });
    const t = new Transport({ baseUrl: origin });
    t.setToken('airtime', 'tok');
    const { lastResponse } = await t.request('airtimeUser');
    expect(lastResponse.requestId).toBeUndefined();
    expect(lastResponse.requestId).toBeUndefined();
    expect('requestId' in lastResponse).toBe(true);
  });
});
