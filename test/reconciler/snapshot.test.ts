import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import type { Reconciler } from '../../src/reconciler/index.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

/**
 * Loggers serialise what they are given. With a listener attached, `JSON.stringify(reconciler)`
 * threw "circular structure" (eventemitter3's `_events` points back at the emitter), and
 * `util.inspect` printed the listener table. The reconciler now shows `{ kind: 'reconciler', … }`:
 * its state and options, nothing of the client it runs on.
 */
const secrets = [
  accounts.collection.password,
  accounts.airtime.password,
  accounts.disbursement.password,
  'api-key-secret-77',
  'token-secret-88',
];

let harness: Harness | undefined;
let reconciler: Reconciler | undefined;
afterEach(async () => {
  await reconciler?.close();
  await harness?.close();
  reconciler = undefined;
  harness = undefined;
});

function withSecrets(baseUrl: string) {
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl,
    credentials: accounts,
    apiKey: 'api-key-secret-77',
    store: new MemoryReferenceStore(),
  });
  pesakit.setToken('airtime', 'token-secret-88');
  return pesakit;
}

describe('a reconciler handed to a logger', () => {
  it('JSON.stringify shows its state and options with listeners attached, and no secret of the client', async () => {
    harness = await startHarness();
    reconciler = withSecrets(harness.url).createReconciler({
      concurrency: 3,
      leaseMs: 30_000,
      onPaid: () => {},
    });
    reconciler.on('settled', () => {});
    reconciler.on('error', () => {});
    reconciler.once('progress', () => {});

    const text = JSON.stringify(reconciler);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('_events');
    const shown = JSON.parse(text) as Record<string, unknown>;
    expect(shown).toEqual({
      kind: 'reconciler',
      running: false,
      closed: false,
      passInProgress: false,
      options: expect.objectContaining({ concurrency: 3, leaseMs: 30_000, ratePerSecond: 20 }),
      handlers: { onPaid: true, onFailed: false, onSent: false, onNotSent: false, onReview: false },
    });
    expect(Object.keys(shown['options'] as object).sort()).toEqual(
      [
        'batchSize',
        'checkoutExpiryMs',
        'concurrency',
        'initiatingGraceMs',
        'jitter',
        'leaseMs',
        'maxAgeMs',
        'maxAttempts',
        'noReferenceWindowMs',
        'pollIntervalMs',
        'ratePerSecond',
        'schedules',
        'settleWindowMs',
      ].sort(),
    );

    // Its state follows it: running once started, a pass under way, closed after close().
    reconciler.start();
    expect(reconciler.toJSON()).toMatchObject({ running: true, passInProgress: true });
    await reconciler.close();
    expect(reconciler.toJSON()).toMatchObject({
      running: false,
      closed: true,
      passInProgress: false,
    });
  });

  it('util.inspect shows the same snapshot, not the listener table, and no secret', () => {
    reconciler = withSecrets('http://127.0.0.1:9').createReconciler();
    reconciler.on('review', () => {});
    const text = inspect(reconciler, { depth: 10 });
    expect(text.startsWith("Reconciler {\n  kind: 'reconciler'")).toBe(true);
    expect(text).not.toContain('_events');
    expect(text).not.toContain('Circular');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('a logger that changes the snapshot changes nothing in the reconciler', () => {
    reconciler = withSecrets('http://127.0.0.1:9').createReconciler();
    const shown = reconciler.toJSON();
    (shown.options.schedules.pending as number[]).push(1);
    shown.options.concurrency = 200;
    expect(reconciler.toJSON().options.concurrency).toBe(8);
    expect(reconciler.toJSON().options.schedules.pending).toHaveLength(9);
  });
});
