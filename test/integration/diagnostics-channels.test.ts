import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import type { Pesakit } from '../../src/client.js';
import { resolveReview } from '../../src/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { BulkBatch } from '../../src/resources/bulk/bulk-run.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { eventually, type ReceiverServer, serveReceiver } from '../callbacks/receiver-server.js';
import { moves } from '../helpers/moves.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Every channel against the real sandbox, a SQLite store and a receiver on a real HTTP server.

type View = Readonly<Record<string, unknown>>;
interface Seen {
  channel: string;
  phase: string;
  view: View;
  /** The view's fields as they were at this event. */
  fields: Record<string, unknown>;
}

const tracedNames = [
  'pesakit.operation',
  'pesakit.request',
  'pesakit.callback',
  'pesakit.reconcile',
];
const plainNames = ['pesakit:record:transition', 'pesakit:callback:received'];
const phases = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** Subscribes to every channel; returns what it saw and the unsubscribe. */
function listen(): { seen: Seen[]; stop: () => void } {
  const seen: Seen[] = [];
  const record = (channel: string, phase: string) => (message: unknown) => {
    const view = message as View;
    seen.push({ channel, phase, view, fields: { ...view } });
  };
  const stops = tracedNames.map((name) => {
    const channel = diagnostics.tracingChannel(name);
    const handlers = Object.fromEntries(
      phases.map((phase) => [phase, record(name, phase)]),
    ) as Record<(typeof phases)[number], (message: unknown) => void>;
    channel.subscribe(handlers);
    return () => channel.unsubscribe(handlers);
  });
  for (const name of plainNames) {
    const handler = record(name, 'publish');
    diagnostics.subscribe(name, handler);
    stops.push(() => diagnostics.unsubscribe(name, handler));
  }
  return {
    seen,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

const ended = (seen: Seen[], channel: string) =>
  seen.filter((event) => event.channel === channel && event.phase === 'asyncEnd');
const published = (seen: Seen[], channel: string) =>
  seen.filter((event) => event.channel === channel).map((event) => event.fields);

let harness: Harness;
let pesakit: Pesakit;
let receiver: CallbackReceiver;
let server: ReceiverServer;
let listening: ReturnType<typeof listen> | undefined;

beforeAll(async () => {
  harness = await startHarness();
  pesakit = harness.client({
    store: await SqliteReferenceStore.open(':memory:'),
    pullWindowMs: 1,
  });
  receiver = pesakit.createCallbackReceiver({ pollIntervalMs: 50 });
  server = await serveReceiver(receiver);
  receiver.start();
});
afterEach(() => {
  listening?.stop();
  listening = undefined;
});
afterAll(async () => {
  await receiver.close();
  await server.close();
  await pesakit.store.close();
  await harness.close();
});

const settle = (ref_id: string, outcome: 'success' | 'failed') =>
  harness.control('collection/settle', { ref_id, outcome });

describe('diagnostics channels', () => {
  it('a collection paid by its callback: operation, requests, callback and transitions, masked', async () => {
    const { token } = await pesakit.collection.login();
    listening = listen();
    const { seen } = listening;
    const payment = await pesakit.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456', callback_url: `${server.url}/callback` },
      { merchantReference: 'obs-paid' },
    );
    await settle(payment.controlNumber, 'success');
    await eventually(() => ended(seen, 'pesakit.callback').length > 0, 15_000, 'the callback');

    const [operation] = ended(seen, 'pesakit.operation');
    expect(operation?.fields).toEqual({
      operation: 'collection.initiateMno',
      product: 'collection',
      merchantReference: 'obs-paid',
      outcome: 'pending',
      msisdn: '*********456',
      errorType: undefined,
    });
    const operationView = operation?.view;
    expect(seen.filter((event) => event.view === operationView).map((e) => e.phase)).toEqual([
      'start',
      'end',
      'asyncStart',
      'asyncEnd',
    ]);
    expect(Object.isFrozen(operationView)).toBe(true);
    expect(() => {
      (operationView as Record<string, unknown>)['outcome'] = 'success';
    }).toThrow(TypeError);

    const requests = ended(seen, 'pesakit.request').map((event) => event.fields);
    expect(requests).toEqual([
      {
        method: 'POST',
        urlTemplate: '/api/sandbox/initiate-payment/mno/',
        serverAddress: '127.0.0.1',
        serverPort: Number(new URL(harness.url).port),
        attempt: 1,
        status: 200,
        requestId: expect.any(String),
        errorType: undefined,
      },
      // The receiver's verifying pull.
      expect.objectContaining({ urlTemplate: '/api/sandbox/transaction/status', status: 200 }),
    ]);
    // The money call's request started inside its operation.
    const order = seen.filter((event) => event.phase === 'start').map((event) => event.channel);
    expect(order.slice(0, 2)).toEqual(['pesakit.operation', 'pesakit.request']);

    expect(ended(seen, 'pesakit.callback').map((event) => event.fields)).toEqual([
      {
        entryId: expect.any(String),
        product: 'collection',
        merchantReference: 'obs-paid',
        outcome: 'paid',
        errorType: undefined,
      },
    ]);
    expect(published(seen, 'pesakit:callback:received')).toEqual([
      { entryId: expect.any(String), duplicate: false },
    ]);
    expect(published(seen, 'pesakit:record:transition')).toEqual([
      {
        merchantReference: 'obs-paid',
        product: 'collection',
        from: 'initiating',
        to: 'pending',
        source: 'answer',
        createdAt: expect.any(Date),
      },
      expect.objectContaining({ from: 'pending', to: 'success', source: 'callback' }),
    ]);

    const everything = JSON.stringify(seen.map((event) => event.fields));
    for (const secret of ['255754123456', accounts.collection.password, token, '15000']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('the reconciler, a status pull, a person and a failed call each name their source', async () => {
    const checked = await pesakit.collection.initiateMno(
      { amount: 2_000, msisdn: '255754123400' },
      { merchantReference: 'obs-reconciled' },
    );
    const pulled = await pesakit.collection.initiateMno(
      { amount: 3_000, msisdn: '255754123401' },
      { merchantReference: 'obs-pulled' },
    );
    await settle(checked.controlNumber, 'success');
    await settle(pulled.controlNumber, 'failed');
    const { store } = pesakit;
    await store.records.create({
      merchantReference: 'obs-review',
      product: 'collection',
      flow: 'mno',
      amount: 1_000,
    });
    await moves(store).transition('obs-review', 'needs_review', {
      review: { reason: 'ambiguous_evidence', message: 'set by the test' },
    });

    listening = listen();
    const { seen } = listening;
    await pesakit.collection.status(pulled.controlNumber);
    await pesakit.createReconciler().runOnce({ force: true });
    await resolveReview(store, 'obs-review', 'success', {
      note: 'paid at the counter',
      by: 'asha',
    });
    await expect(pesakit.collection.status('CN-NOT-THERE')).rejects.toThrow();

    const transitions = published(seen, 'pesakit:record:transition');
    expect(transitions).toEqual([
      expect.objectContaining({ merchantReference: 'obs-pulled', to: 'failed', source: 'pull' }),
      expect.objectContaining({
        merchantReference: 'obs-reconciled',
        from: 'pending',
        to: 'success',
        source: 'reconciler',
      }),
      expect.objectContaining({
        merchantReference: 'obs-review',
        from: 'needs_review',
        to: 'success',
        source: 'review',
      }),
    ]);
    expect(ended(seen, 'pesakit.reconcile').map((event) => event.fields)).toContainEqual({
      merchantReference: 'obs-reconciled',
      product: 'collection',
      outcome: 'settled',
      errorType: undefined,
    });
    const operations = ended(seen, 'pesakit.operation').map((event) => event.fields);
    expect(operations[0]).toMatchObject({
      operation: 'collection.status',
      merchantReference: 'obs-pulled',
      outcome: 'failed',
    });
    expect(operations.at(-1)).toMatchObject({
      operation: 'collection.status',
      outcome: 'error',
      errorType: 'NotFoundError',
    });
    const failedRequest = ended(seen, 'pesakit.request').at(-1)?.fields;
    expect(failedRequest).toMatchObject({ status: 404, errorType: 'NotFoundError' });
    // The application's own write to the store (needs_review above) has no source: not published.
    expect(transitions.filter((event) => event['to'] === 'needs_review')).toEqual([]);
  });

  it('a payout is one operation; a bulk run stays itself while traced', async () => {
    await harness.control('wallets/credit', {
      product: 'disbursement',
      email: accounts.disbursement.email,
      amount: 50_000,
    });
    listening = listen();
    const { seen } = listening;
    const payout = await pesakit.disbursement.pay(
      { msisdn: '255754123456', amount: 5_000, name: 'Asha Juma' },
      { merchantReference: 'obs-payout' },
    );
    expect(ended(seen, 'pesakit.operation').map((event) => event.fields)).toContainEqual({
      operation: 'disbursement.pay',
      product: 'disbursement',
      merchantReference: 'obs-payout',
      outcome: payout.record.status,
      msisdn: '*********456',
      errorType: undefined,
    });
    expect(published(seen, 'pesakit:record:transition')).toContainEqual(
      expect.objectContaining({ merchantReference: 'obs-payout', source: 'answer' }),
    );
    const bulk = pesakit.airtime.bulkPurchase([]);
    expect(bulk).toBeInstanceOf(BulkBatch);
    await expect(bulk).rejects.toThrow();
    await eventually(() => ended(seen, 'pesakit.operation').length === 2, 5_000, 'the bulk run');
    expect(ended(seen, 'pesakit.operation').at(-1)?.fields).toMatchObject({
      operation: 'airtime.bulkPurchase',
      outcome: 'error',
    });
  });

  it('publishes nothing while nobody listens; a subscriber added later sees the next call', async () => {
    const operation = diagnostics.tracingChannel('pesakit.operation');
    expect(operation.hasSubscribers).toBe(false);
    await pesakit.collection.testProvider('airtel');
    listening = listen();
    expect(listening.seen).toEqual([]);
    await pesakit.collection.testProvider('vodacom');
    expect(ended(listening.seen, 'pesakit.operation').map((event) => event.fields)).toEqual([
      expect.objectContaining({ operation: 'collection.testProvider', outcome: undefined }),
    ]);
    listening.stop();
    const count = listening.seen.length;
    await pesakit.collection.testProvider('tigo');
    expect(listening.seen).toHaveLength(count);
  });

  it('on PostgreSQL, a transition is published after its commit, with its source', async () => {
    const database = await createTestDatabase('diagnostics');
    const store = await PostgresReferenceStore.open(database.url);
    try {
      const client = harness.client({ store });
      listening = listen();
      const started = await client.collection.initiateMno(
        { amount: 4_000, msisdn: '255754123402' },
        { merchantReference: 'obs-postgres' },
      );
      await settle(started.controlNumber, 'success');
      await client.collection.status(started.controlNumber);
      const transitions = published(listening.seen, 'pesakit:record:transition');
      expect(transitions).toEqual([
        expect.objectContaining({ from: 'initiating', to: 'pending', source: 'answer' }),
        expect.objectContaining({ from: 'pending', to: 'success', source: 'pull' }),
      ]);
      // The store holds what the last event says.
      expect((await store.records.get('obs-postgres'))?.status).toBe('success');
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
