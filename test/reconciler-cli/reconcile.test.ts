import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/cli/reconcile/run-reconcile.js';
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

/** `pesakit reconcile --once --all` in-process, with the given environment. */
async function reconcileOnce(extra: Record<string, unknown> = {}, env = credentialEnv(shop.url)) {
  const io = captureIo(env);
  const code = await runReconcile(
    {
      once: true,
      all: true,
      store: shop.file,
      storeFromArgv: true,
      environment: 'sandbox',
      ...extra,
    },
    io,
  );
  return { code, stdout: io.out.text, stderr: io.err.text, lines: io.out.lines() };
}

describe('pesakit reconcile --once: a lost callback is recovered by pull', () => {
  it('settles a collection paid at the platform, prints the summary table and exits 0', async () => {
    const payment = await shop.pendingCollection();
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('pending');

    const run = await reconcileOnce();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`settled   ${payment.merchantReference} collection/mno 15000 TZS`);
    expect(run.stdout).toMatch(
      /\| checked \| settled \| failed \| still pending \| needs review \| errors \|/,
    );
    expect(run.stdout).toMatch(/\|\s+1\s+\|\s+1\s+\|\s+0\s+\|\s+0\s+\|\s+0\s+\|\s+0\s+\|/);
    expect(run.stdout).toContain('Nothing waits for review.');
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('success');
  });

  it('a platform failure becomes failed; one still pending stays pending; exit 0', async () => {
    const failed = await shop.pendingCollection(12_000);
    const waiting = await shop.pendingCollection(13_000);
    await shop.control('collection/settle', { ref_id: failed.controlNumber, outcome: 'failed' });

    const run = await reconcileOnce();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\|\s+2\s+\|\s+0\s+\|\s+1\s+\|\s+1\s+\|\s+0\s+\|\s+0\s+\|/);
    expect((await shop.store.records.get(failed.merchantReference))?.status).toBe('failed');
    expect((await shop.store.records.get(waiting.merchantReference))?.status).toBe('pending');
  });
});

describe('pesakit reconcile: exit 3 when something needs review, so cron alerts', () => {
  it('an underpaid collection goes to needs_review with evidence; exit 3, and again on the next run', async () => {
    const payment = await shop.pendingCollection(20_000);
    await shop.payShort(payment, 5_000);

    const first = await reconcileOnce();
    expect(first.code).toBe(3);
    expect(first.stdout).toContain(
      `review    ${payment.merchantReference} collection/mno 20000 TZS: amount_mismatch`,
    );
    expect(first.stdout).toMatch(/1 record in needs_review: see `pesakit review list`/);
    const record = await shop.store.records.get(payment.merchantReference);
    expect(record?.status).toBe('needs_review');
    expect(record?.review?.reason).toBe('amount_mismatch');
    expect(record?.review?.evidence).toBeDefined();

    // Nothing is due any more, but the record still waits for a person: still 3.
    const second = await reconcileOnce({ all: false });
    expect(second.code).toBe(3);
  });
});

describe('pesakit reconcile --json: JSON lines for log pipelines', () => {
  it('prints one JSON object per line: start, the settled record, and a summary with the exit code', async () => {
    const payment = await shop.pendingCollection();
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });

    const run = await reconcileOnce({ json: true });
    expect(run.code).toBe(0);
    const events = run.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ event: 'start', mode: 'once', all: true, store: shop.file });
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'settled',
        merchantReference: payment.merchantReference,
        status: 'success',
      }),
    );
    expect(events.at(-1)).toMatchObject({
      event: 'summary',
      checked: 1,
      settled: 1,
      errors: 0,
      needsReview: 0,
      exitCode: 0,
    });
    for (const event of events) expect(Date.parse(String(event['at']))).not.toBeNaN();
  });
});

describe('pesakit reconcile: credentials from the environment only', () => {
  it('a separate process with PESAKIT_* in its environment settles the record (exit 0)', async () => {
    const payment = await shop.pendingCollection();
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    const run = await runCli(
      ['reconcile', '--once', '--all', '--store', shop.file, '--environment', 'sandbox', '--json'],
      credentialEnv(shop.url),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({ settled: 1 });
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('success');
  });

  it('refused credentials make every check fail: exit 1, the password never printed, nothing moved', async () => {
    const payment = await shop.pendingCollection();
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    const env = { ...credentialEnv(shop.url), PESAKIT_COLLECTION_PASSWORD: 'wrong-pass-xyz' };
    const run = await reconcileOnce({ json: true }, env);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain('wrong-pass-xyz');
    expect(JSON.parse(run.lines.at(-1) ?? '')).toMatchObject({
      event: 'summary',
      errors: 1,
      exitCode: 1,
    });
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('pending');
  });
});

describe('pesakit reconcile --watch', () => {
  it('keeps passing until SIGTERM, then closes and exits with the summary', async () => {
    const payment = await shop.pendingCollection();
    await shop.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    const run = await runCli(
      ['reconcile', '--watch', '--store', shop.file, '--environment', 'sandbox', '--json'],
      credentialEnv(shop.url),
      {
        // The first check of a new record is due within the early burst; SIGTERM once it settled.
        onStdoutLine: (line, child) => {
          if (line.includes('"event":"settled"')) child.kill('SIGTERM');
        },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '');
    expect(last).toMatchObject({ event: 'summary', settled: 1, exitCode: 0 });
    expect((await shop.store.records.get(payment.merchantReference))?.status).toBe('success');
  }, 60_000);
});

describe('pesakit reconcile runs no merchant code and swallows no effect', () => {
  // Regression: the CLI's reconciler has no handlers, and completed every effect it won or
  // drained with nothing run — the application's onPaid never fired for those payments.
  it('a payment it settles, and one another path left due, both keep their effect due for the app', async () => {
    const byCli = await shop.pendingCollection(15_000);
    const byOther = await shop.pendingCollection(16_000);
    await shop.control('collection/settle', { ref_id: byCli.controlNumber, outcome: 'success' });
    await shop.control('collection/settle', { ref_id: byOther.controlNumber, outcome: 'success' });
    await shop.pesakit.collection.status(byOther.controlNumber);

    const run = await reconcileOnce();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`settled   ${byCli.merchantReference}`);
    for (const payment of [byCli, byOther]) {
      const record = await shop.store.records.get(payment.merchantReference);
      expect(record?.status).toBe('success');
      expect(record?.effect.status).toBe('due');
    }

    const paid: string[] = [];
    const runner = new EffectRunner(shop.store, {
      onPaid: (record) => {
        paid.push(record.merchantReference);
      },
    });
    await runner.drain({ limit: 10 });
    await runner.drain({ limit: 10 });
    expect(paid.sort()).toEqual([byCli.merchantReference, byOther.merchantReference].sort());
  });
});
