import { describe, expect, it } from 'vitest';
import type { ReceivedRequest } from '../../src/index.js';
import { Pesakit } from '../../src/index.js';
import { merchantCallback } from '../callbacks/payloads.js';

// Checks "Without a framework: receive()" (docs/callbacks.md): receive()
// "never throws". A merchant's own adapter in JavaScript may hand it a request without headers
// (a GET has no content type to give) or with a method it did not read: before, receive()
// rejected with a TypeError (`Object.entries(undefined)`, `undefined.toUpperCase()`), which a
// plain node:http server turns into an unanswered request or a crash.

const receiver = () =>
  new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9' }).createCallbackReceiver();
const body = JSON.stringify(
  merchantCallback({ paymentReference: 'ENG01', controlNumber: '990000000001', amount: 1000 }),
);

describe('receive() with an incomplete request object', () => {
  it('a GET callback without headers is received', async () => {
    const answer = await receiver().receive({
      method: 'GET',
      url: `/callback?payload=${encodeURIComponent(body)}`,
    } as unknown as ReceivedRequest);
    expect(answer.status).toBe(200);
  });

  it('a POST without headers is a 415, not a throw', async () => {
    const answer = await receiver().receive({
      method: 'POST',
      url: '/callback',
      body,
    } as unknown as ReceivedRequest);
    expect(answer.status).toBe(415);
  });

  it.each([
    ['no method', { url: '/callback', headers: {} }],
    ['no url', { method: 'POST', headers: {} }],
    ['not an object', null],
  ])('%s: a 400 saying what is missing, not a throw', async (_label, request) => {
    const answer = await receiver().receive(request as unknown as ReceivedRequest);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toMatch(/method|url|request/);
  });
});
