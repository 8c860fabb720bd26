import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { defaultSchedules } from '../../src/reconciler/options.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { runNode } from '../helpers/run-node.js';
import { runtimeEnv } from './harness.js';
import { accounts, credentialEnv, startShop } from './sandbox-shop.js';

/** Runs examples/cron-reconciler/reconcile-job.ts once, as cron would: env only, no argv. */
async function runJob(env: Record<string, string>) {
  const { code, stdout, stderr } = await runNode(
    ['--import', 'tsx', 'examples/cron-reconciler/reconcile-job.ts'],
    { env: { ...runtimeEnv(), ...env } },
  );
  const events = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, events, stderr };
}

let shop: Awaited<ReturnType<typeof startShop>>;
beforeEach(async () => {
  shop = await startShop();
});
afterEach(async () => {
  await shop.close();
});

describe('examples/cron-reconciler: the scheduled job, run once against a sandbox on port 0', () => {
  it('settles a payment whose callback was lost and runs the shop handler once; a re-run changes nothing', async () => {
    const payment = await shop.pendingCollection(15_000);
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    // A just-sent record is first due one early-burst delay (jittered by up to 10 %) after
    // its attempt; cron would find it on its next run. Start the one run once it is due.
    const attemptedAt = (await shop.store.records.get(payment.merchantReference))?.attemptedAt;
    const dueBy = (attemptedAt?.getTime() ?? Date.now()) + defaultSchedules.pending[0] * 1.1 + 300;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueBy - Date.now())));
    const env = { ...credentialEnv(shop.url), PESAKIT_STORE: shop.file };
    const first = await runJob(env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.events).toContainEqual(
      expect.objectContaining({ event: 'settled', merchantReference: payment.merchantReference }),
    );
    expect(first.events.at(-1)).toMatchObject({ event: 'summary', settled: 1, exitCode: 0 });
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('success');

    const again = await runJob(env);
    expect(again.code).toBe(0);
    expect(again.events.at(-1)).toMatchObject({ event: 'summary', settled: 0 });

    const database = new Database(shop.file, { readonly: true });
    const rows = database.prepare('SELECT effect_key, outcome, amount FROM fulfilment').all();
    database.close();
    expect(rows).toEqual([
      { effect_key: payment.merchantReference, outcome: 'paid', amount: 15_000 },
    ]);
  }, 90_000);

  it("exits 4 when the payments were made with another account than the job's: nothing pulled, both accounts named", async () => {
    // The README's sandbox account (shop@example.co.tz), against a shop that paid with its own.
    const readmeAccount = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };
    await shop.control('accounts', { product: 'collection', ...readmeAccount });
    // Paid a minute ago (the store's clock), so that the job's pass finds it due.
    const earlier = await SqliteReferenceStore.open(shop.file, {
      now: () => new Date(Date.now() - 60_000),
    });
    const payment = await new Pesakit({
      environment: 'sandbox',
      baseUrl: shop.url,
      credentials: accounts,
      store: earlier,
    }).collection.initiateMno({ amount: 15_000, msisdn: '255754321998' });
    await earlier.close();
    const before = await shop.store.records.get(payment.merchantReference);
    const run = await runJob({
      PESAKIT_STORE: shop.file,
      PESAKIT_BASE_URL: shop.url,
      PESAKIT_COLLECTION_EMAIL: readmeAccount.email,
      PESAKIT_COLLECTION_PASSWORD: readmeAccount.password,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(4);
    expect(run.events).toContainEqual(
      expect.objectContaining({
        event: 'not_visible',
        merchantReference: payment.merchantReference,
        recordAccount: { environment: 'sandbox', login: accounts.collection.email },
        clientAccount: { environment: 'sandbox', login: readmeAccount.email },
      }),
    );
    expect(run.events.at(-1)).toMatchObject({
      event: 'summary',
      checked: 0,
      pending: 0,
      notVisible: 1,
      exitCode: 4,
    });
    expect(await shop.store.records.get(payment.merchantReference)).toEqual(before);
  }, 90_000);

  it('exits 2 and names the variable when the store is not configured', async () => {
    const run = await runJob(credentialEnv(shop.url));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PESAKIT_STORE');
  });
});
