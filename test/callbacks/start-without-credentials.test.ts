import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { Pesakit } from '../../src/client.js';
import { isConfigurationError } from '../../src/errors/configuration-error.js';
import type { CollectionTransaction } from '../../src/schemas/collection.js';
import { merchantCallback } from './payloads.js';

// Processing a callback pulls the payment's status with the collection product's bearer token.
// A receiver whose client has neither collection credentials nor a collection token would
// store every callback, fail every pull, retry for ~13 minutes and dead-letter it: start()
// refuses instead, saying what to pass. Receiving alone (another process works the inbox)
// needs no credentials.

const baseUrl = 'http://127.0.0.1:9';
const login = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };
const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function receiverOf(pesakit: Pesakit): CallbackReceiver {
  const receiver = pesakit.createCallbackReceiver({ pollIntervalMs: 10, inboxRetention: false });
  receivers.push(receiver);
  return receiver;
}

function startFailure(receiver: CallbackReceiver): unknown {
  try {
    receiver.start();
  } catch (error) {
    return error;
  }
  return undefined;
}

const post = (receiver: CallbackReceiver) =>
  receiver.receive({
    method: 'POST',
    url: '/callback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15_000 }),
    ),
  });

describe('receiver.start() without collection credentials', () => {
  it('refuses with a ConfigurationError naming credentials.collection, and starts nothing', async () => {
    vi.useFakeTimers();
    const pesakit = new Pesakit({ environment: 'sandbox', baseUrl });
    const receiver = receiverOf(pesakit);
    const claims = vi.spyOn(pesakit.store.inbox, 'claim');
    // Receiving does not need them: the callback is stored and acknowledged.
    expect((await post(receiver)).status).toBe(200);

    const failure = startFailure(receiver);
    expect(isConfigurationError(failure)).toBe(true);
    expect((failure as { option: string }).option).toBe('credentials.collection');
    expect((failure as Error).message).toMatch(
      /credentials: \{ collection: \{ email, password \} \}/,
    );
    expect((failure as Error).message).toMatch(/setToken\('collection', token\)/);

    await vi.advanceTimersByTimeAsync(5_000);
    expect(claims).not.toHaveBeenCalled();
    const [entry] = await pesakit.store.inbox.list();
    expect(entry).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('refuses a client with only disbursement and airtime credentials', () => {
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl,
      credentials: { disbursement: login, airtime: login },
    });
    const failure = startFailure(receiverOf(pesakit));
    expect(isConfigurationError(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/Disbursement and airtime send no callbacks/);
  });

  it('starts with collection credentials', () => {
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl,
      credentials: { collection: login },
    });
    expect(startFailure(receiverOf(pesakit))).toBeUndefined();
  });

  it('starts with a collection token set before start(), and after a refusal once it is set', async () => {
    vi.useFakeTimers();
    const pesakit = new Pesakit({ environment: 'sandbox', baseUrl });
    const receiver = receiverOf(pesakit);
    expect(isConfigurationError(startFailure(receiver))).toBe(true);
    pesakit.setToken('collection', 'a-token-from-elsewhere');
    const claims = vi.spyOn(pesakit.store.inbox, 'claim');
    expect(startFailure(receiver)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(50);
    expect(claims).toHaveBeenCalled();
  });

  it('a receiver with a pull of its own is not asked', () => {
    // new CallbackReceiver({ store, pull }) without canPull: the pull is the caller's business.
    const pesakit = new Pesakit({ environment: 'sandbox', baseUrl });
    const pull = async (): Promise<CollectionTransaction> => {
      throw new Error('unused');
    };
    const receiver = new CallbackReceiver(
      { store: pesakit.store, pull },
      { inboxRetention: false },
    );
    receivers.push(receiver);
    expect(startFailure(receiver)).toBeUndefined();
  });
});
