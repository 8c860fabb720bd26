import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestEvent, ResponseEvent } from '../../src/core/transport.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe('pesakit.on: the transport events, with secrets redacted', () => {
  it('reports each request and response, and off() stops it', async () => {
    const pesakit = harness.client();
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const onResponse = (event: ResponseEvent) => responses.push(event);
    pesakit.on('request', (event) => requests.push(event)).on('response', onResponse);

    await pesakit.disbursement.user();
    expect(requests.map((e) => e.endpoint)).toEqual(['disbursementLogin', 'disbursementUser']);
    expect(responses.map((e) => [e.endpoint, e.status])).toEqual([
      ['disbursementLogin', 200],
      ['disbursementUser', 200],
    ]);
    const seen = JSON.stringify([requests, responses]);
    expect(seen).not.toContain(accounts.disbursement.password);
    expect(requests[1]?.headers['authorization']).toBe('[redacted]');

    pesakit.off('response', onResponse);
    await pesakit.disbursement.user();
    expect(responses).toHaveLength(2);
    expect(requests).toHaveLength(3);
  });
});
