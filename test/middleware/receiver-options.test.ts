import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { pesakitExpress } from '../../src/express.js';
import { pesakitFastify } from '../../src/fastify.js';
import { isConfigurationError, isPesakitError, Pesakit } from '../../src/index.js';
import { moves } from '../helpers/moves.js';

// "Everything pesakit throws is a PesakitError — configuration
// mistakes included" (docs/errors.md), and a mistake is found when the receiver is made, not
// when the first customer comes back from a checkout.

const pesakit = () => new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9' });

function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('createCallbackReceiver(options): bad options', () => {
  it.each([
    ['concurrency', { concurrency: 0 }],
    ['leaseMs', { leaseMs: -1 }],
    ['maxBodyBytes', { maxBodyBytes: Number.NaN }],
    ['retryDelaysMs', { retryDelaysMs: [] }],
    ['recheckDelaysMs', { recheckDelaysMs: [-5] }],
    // Timers cannot wait longer than 2^31-1 ms: Node would run them after 1 ms instead —
    // an idle worker polling the store a thousand times a second.
    ['pollIntervalMs', { pollIntervalMs: 2 ** 31 }],
    ['effectDrainIntervalMs', { effectDrainIntervalMs: 1e12 }],
    ['concurrency', { concurrency: 2.5 }],
  ] as const)('%s: a ConfigurationError naming it', (option, options) => {
    const error = thrownBy(() => pesakit().createCallbackReceiver(options));
    expect(isPesakitError(error)).toBe(true);
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe(option);
    expect((error as Error).message).toContain(option);
  });

  it.each([
    ['returnUrls.paid', { paid: 'http://[::1' }],
    ['returnUrls.failed', { failed: 'javascript:alert(1)' }],
    ['returnUrls.pending', { pending: '' }],
  ])('%s that is not an http(s) URL or a path: a ConfigurationError', (option, returnUrls) => {
    const error = thrownBy(() => pesakit().createCallbackReceiver({ returnUrls }));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe(option);
  });

  it('accepts paths and http(s) URLs', () => {
    expect(() =>
      pesakit().createCallbackReceiver({
        returnUrls: { paid: '/thanks', pending: 'https://shop.example/wait?x=1', failed: 'retry' },
      }),
    ).not.toThrow();
  });
});

describe('the adapters check their own returnUrls when mounted', () => {
  it('pesakitExpress', () => {
    const receiver = pesakit().createCallbackReceiver();
    const error = thrownBy(() => pesakitExpress(receiver, { returnUrls: { paid: 'http://[::1' } }));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('returnUrls.paid');
    expect(() =>
      express().use('/p', pesakitExpress(receiver, { returnUrls: { paid: '/ok' } })),
    ).not.toThrow();
  });

  it('pesakitFastify', async () => {
    const receiver = pesakit().createCallbackReceiver();
    const app = Fastify();
    const error = await app
      .register(pesakitFastify, { receiver, returnUrls: { failed: 'javascript:void(0)' } })
      .ready()
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(isConfigurationError(error)).toBe(true);
    await app.close();
  });

  it('a receive() given a bad returnUrl per call answers, never throws', async () => {
    // receive() is documented never to throw; an adapter of someone else's may pass anything.
    const client = pesakit();
    // A checkout already paid: the return answers from the store, without a pull.
    await client.store.records.create({
      merchantReference: 'order-1',
      product: 'collection',
      flow: 'secure',
      amount: 1000,
    });
    await moves(client.store).attachReferences('order-1', {
      controlNumber: '990000000001',
      externalReference: 'EXT0000000000000001',
    });
    await moves(client.store).transition('order-1', 'pending');
    await moves(client.store).transition('order-1', 'success');
    const receiver = client.createCallbackReceiver();
    const answer = await receiver.receive(
      { method: 'GET', url: '/return?external_reference=EXT0000000000000001', headers: {} },
      { returnUrls: { paid: 'http://[::1' } },
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'paid', paid: true });
  });
});
