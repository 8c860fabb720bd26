import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReviewList, runReviewResolve } from '../../src/cli/reconcile/run-review.js';
import { EffectRunner } from '../../src/settlement/effects.js';
import { captureIo, runCli } from './harness.js';
import { credentialEnv, startShop } from './sandbox-shop.js';

let shop: Awaited<ReturnType<typeof startShop>>;
beforeEach(async () => {
  shop = await startShop();
});
afterEach(async () => {
  await shop.close();
});

/** An underpaid collection taken to needs_review by a real reconcile run. */
async function underpaidInReview() {
  const payment = await shop.pendingCollection(20_000);
  await shop.payShort(payment, 5_000);
  const run = await runCli(
    ['reconcile', '--once', '--all', '--store', shop.file, '-e', 'sandbox'],
    credentialEnv(shop.url),
  );
  expect(run.code).toBe(3);
  return payment;
}

// Each test runs the built CLI in child processes (a reconcile run, then review): about 4 s on a
// quiet machine, past the suite's 20 s under a load average of 8–13.
const cliTests = { timeout: 60_000 };

describe('pesakit review list', cliTests, () => {
  it('shows nothing and exits 0 when nothing waits', async () => {
    const io = captureIo();
    expect(await runReviewList({ store: shop.file, storeFromArgv: true }, io)).toBe(0);
    expect(io.out.text).toBe('Nothing waits for review.\n');
  });

  it('lists a record in needs_review with its reason, and --json carries the evidence; exit 3', async () => {
    const payment = await underpaidInReview();
    const table = await runCli(['review', 'list', '--store', shop.file]);
    expect(table.code).toBe(3);
    expect(table.stdout).toContain(payment.merchantReference);
    expect(table.stdout).toContain('amount_mismatch');

    const io = captureIo();
    expect(await runReviewList({ store: shop.file, storeFromArgv: true, json: true }, io)).toBe(3);
    const [line, ...rest] = io.out.lines();
    expect(rest).toEqual([]);
    const entry = JSON.parse(line ?? '');
    expect(entry).toMatchObject({
      merchantReference: payment.merchantReference,
      status: 'needs_review',
      amount: 20_000,
      controlNumber: payment.controlNumber,
      reason: 'amount_mismatch',
    });
    expect(entry.evidence).not.toBeNull();
  });
});

describe('pesakit review resolve', cliTests, () => {
  it('moves the record out of needs_review once; a second resolve is refused and fires nothing', async () => {
    const payment = await underpaidInReview();
    const resolve = await runCli([
      'review',
      'resolve',
      payment.merchantReference,
      'failed',
      '--note',
      'customer paid 5,000 of 20,000; refunded by bank transfer',
      '--by',
      'neema',
      '--store',
      shop.file,
    ]);
    expect(resolve.stderr).toBe('');
    expect(resolve.code).toBe(0);
    expect(resolve.stdout).toContain(`resolved  ${payment.merchantReference} → failed`);

    const resolved = await shop.store.records.get(payment.merchantReference);
    expect(resolved).toMatchObject({
      status: 'failed',
      resolution: {
        status: 'failed',
        by: 'neema',
        note: 'customer paid 5,000 of 20,000; refunded by bank transfer',
      },
    });
    // The review verdict is kept for the record's history.
    expect(resolved?.review?.reason).toBe('amount_mismatch');

    // The merchant's own effect runner picks up the decision exactly once.
    const fired: string[] = [];
    const runner = new EffectRunner(shop.store, {
      onFailed: (record) => {
        fired.push(`failed:${record.merchantReference}`);
      },
      onPaid: (record) => {
        fired.push(`paid:${record.merchantReference}`);
      },
    });
    await runner.drain({ limit: 10 });
    expect(fired).toEqual([`failed:${payment.merchantReference}`]);

    const again = captureIo();
    const code = await runReviewResolve(
      {
        store: shop.file,
        storeFromArgv: true,
        merchantReference: payment.merchantReference,
        status: 'success',
        note: 'second thoughts',
      },
      again,
    );
    expect(code).toBe(1);
    expect(again.err.text).toMatch(/is failed, not needs_review.*Nothing was changed/);
    const after = await shop.store.records.get(payment.merchantReference);
    expect(after?.status).toBe('failed');
    expect(after?.resolution).toEqual(resolved?.resolution);
    await runner.drain({ limit: 10 });
    expect(fired).toHaveLength(1);

    const list = captureIo();
    expect(await runReviewList({ store: shop.file, storeFromArgv: true }, list)).toBe(0);
  });

  it('an unknown merchant reference exits 1 and says so', async () => {
    const io = captureIo();
    const code = await runReviewResolve(
      {
        store: shop.file,
        storeFromArgv: true,
        merchantReference: 'NO-SUCH',
        status: 'failed',
        note: 'x',
      },
      io,
    );
    expect(code).toBe(1);
    expect(io.err.text).toContain('no record has the merchant reference NO-SUCH');
  });
});
