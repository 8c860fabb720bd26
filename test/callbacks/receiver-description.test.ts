import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { Pesakit } from '../../src/client.js';

// Loggers print what they are given (`log.info({ receiver })`, `console.log(receiver)`). The
// receiver extends eventemitter3, whose listeners hold a back-reference to it: before
// toJSON(), JSON.stringify threw "circular" as soon as one listener was attached, and inspect
// printed every listener's function.

const password = 'sandbox-pass-secret-1';
const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function listenedReceiver(): CallbackReceiver {
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:9',
    credentials: { collection: { email: 'shop@example.co.tz', password } },
  });
  pesakit.setToken('collection', 'collection-token-secret');
  const receiver = pesakit.createCallbackReceiver({
    onPaid: async function fulfilOrderWithSecretKey() {},
    onSent: async function markPayoutSentWithSecretKey() {},
    returnUrls: { paid: 'https://shop.example/paid?session=return-token-secret' },
    concurrency: 3,
    inboxRetention: false,
  });
  receiver.on('error', function logReceiverError() {});
  receiver.on('paid', () => {});
  receivers.push(receiver);
  return receiver;
}

describe('a receiver printed by a logger', () => {
  it('JSON.stringify gives its kind, state and settings once listeners are attached', () => {
    const receiver = listenedReceiver();
    const printed = JSON.parse(JSON.stringify(receiver));
    expect(printed).toEqual({
      kind: 'callbackReceiver',
      started: false,
      pulls: 0,
      handlers: ['onPaid', 'onSent'],
      returnUrls: ['paid'],
      options: expect.objectContaining({ concurrency: 3, maxBodyBytes: 16_384 }),
    });
    expect(printed.options.inboxRetention).toBe(false);
    receiver.start();
    expect(JSON.parse(JSON.stringify(receiver)).started).toBe(true);
  });

  it('inspect shows the same description, never a handler, a listener or a secret', () => {
    const receiver = listenedReceiver();
    const shown = inspect(receiver, { depth: 10 });
    expect(shown).toMatch(/^CallbackReceiver \{/);
    expect(shown).toContain("kind: 'callbackReceiver'");
    for (const hidden of [
      'fulfilOrderWithSecretKey',
      'markPayoutSentWithSecretKey',
      'logReceiverError',
      '_events',
      password,
      'collection-token-secret',
      'return-token-secret',
    ]) {
      expect(shown).not.toContain(hidden);
      expect(JSON.stringify(receiver)).not.toContain(hidden);
    }
  });
});
