import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/cli/reconcile/run-reconcile.js';
import { captureIo, runCli } from './harness.js';
import { accounts, credentialEnv, startShop } from './sandbox-shop.js';

// docs/reconciler.md, "Exit codes": a job whose credentials (or --environment) are not those
// the payments were made with pulls nothing for them — the platform would answer 404, which
// proves nothing — and exits 4, naming both accounts, so cron alerts instead of reporting
// "still pending" for three days.

const other = { email: 'other-shop@reconcile.tz', password: 'other-pass-1' };

let shop: Awaited<ReturnType<typeof startShop>>;
beforeEach(async () => {
  shop = await startShop();
  await shop.control('accounts', { product: 'collection', ...other });
});
afterEach(async () => {
  await shop.close();
});

/** The shop's environment with the collection account swapped for another shop's. */
const otherEnv = () => ({
  ...credentialEnv(shop.url),
  PESAKIT_COLLECTION_EMAIL: other.email,
  PESAKIT_COLLECTION_PASSWORD: other.password,
});

describe('pesakit reconcile with another account than the payments were made with', () => {
  it('--json: a not_visible line naming both accounts, notVisible in the summary, exit 4, the record untouched', async () => {
    const payment = await shop.pendingCollection(15_000);
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    const before = await shop.store.records.get(payment.merchantReference);
    const io = captureIo(otherEnv());
    const code = await runReconcile(
      {
        once: true,
        all: true,
        json: true,
        store: shop.file,
        storeFromArgv: true,
        environment: 'sandbox',
      },
      io,
    );
    expect(io.err.text).toBe('');
    expect(code).toBe(4);
    const lines = io.out.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'not_visible',
        merchantReference: payment.merchantReference,
        product: 'collection',
        status: 'pending',
        recordAccount: { environment: 'sandbox', login: accounts.collection.email },
        clientAccount: { environment: 'sandbox', login: other.email },
      }),
    );
    expect(lines.at(-1)).toMatchObject({
      event: 'summary',
      checked: 0,
      settled: 0,
      notVisible: 1,
      exitCode: 4,
    });
    expect(await shop.store.records.get(payment.merchantReference)).toEqual(before);

    // With the shop's own account the same run settles it and exits 0.
    const own = captureIo(credentialEnv(shop.url));
    const settled = await runReconcile(
      { once: true, all: true, store: shop.file, storeFromArgv: true, environment: 'sandbox' },
      own,
    );
    expect(settled).toBe(0);
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('success');
  });

  it('as a process: exit 4 and a "not visible" column in the table', async () => {
    const payment = await shop.pendingCollection(12_000);
    const run = await runCli(
      ['reconcile', '--once', '--all', '--store', shop.file, '--environment', 'sandbox'],
      otherEnv(),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(
      `not visible ${payment.merchantReference} collection/mno 12000 TZS: `,
    );
    expect(run.stdout).toMatch(/\| errors \| not visible \|/);
    expect(run.stdout).toMatch(/\|\s+0\s+\|\s+0\s+\|\s+0\s+\|\s+0\s+\|\s+0\s+\|\s+0\s+\|\s+1\s+\|/);
    expect(run.stdout).toContain('1 record was made with another account or environment');
  });
});
