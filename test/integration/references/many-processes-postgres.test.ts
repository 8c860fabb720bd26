import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../../src/index.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { engineCallback } from '../../callbacks/payloads.js';
import { eventually } from '../../callbacks/receiver-server.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { runNode } from '../../helpers/run-node.js';
import { accounts, type Harness, startHarness } from '../../helpers/sandbox-harness.js';

// The reconciler and receiver with real processes: three merchant instances (each a
// callback receiver AND a reconciler worker, from the built package) share one PostgreSQL store
// while the sandbox pushes duplicated callbacks to them and their reconcilers pull the same
// records. One instance is killed with SIGKILL mid-way. What must hold: one effect per payment
// across all processes, every record final and agreeing with the sandbox's own state, nothing
// left pending/unknown, and no survivor crashed or logged an unhandled rejection.

const script = fileURLToPath(new URL('./fixtures/merchant-process.mjs', import.meta.url));
const cliPath = fileURLToPath(new URL('../../../dist/cli/index.js', import.meta.url));

let harness: Harness;
let database: TestDatabase;
let shop: pg.Pool;
let store: PostgresReferenceStore;
let pesakit: Pesakit;
const children: Merchant[] = [];

interface Merchant {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

beforeAll(async () => {
  harness = await startHarness({ callbackSchedule: [20, 50, 100] });
  database = await createTestDatabase('many_processes');
  store = await PostgresReferenceStore.open(database.url, { maxConnections: 4 });
  pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: harness.url,
    credentials: accounts,
    store,
  });
  shop = new pg.Pool({ connectionString: database.url, max: 2 });
  await shop.query(
    'create table effect_calls (id serial primary key, kind text not null, merchant_reference text, pid int not null)',
  );
});

afterAll(async () => {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  await shop?.end();
  await store?.close();
  await database?.drop();
  await harness?.close();
});

async function startMerchant(): Promise<Merchant> {
  const child = spawn(
    process.execPath,
    [script, harness.url, database.url, JSON.stringify(accounts)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = /READY (\S+)/.exec(stdout);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once('exit', (code) => reject(new Error(`merchant exited (${code}): ${stderr}`)));
  });
  const merchant = { child, url, stderr: () => stderr };
  children.push(merchant);
  return merchant;
}

async function stop(merchant: Merchant, signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null> {
  if (merchant.child.exitCode !== null) return merchant.child.exitCode;
  const exited = new Promise<number | null>((resolve) =>
    merchant.child.once('exit', (code) => resolve(code)),
  );
  merchant.child.kill(signal);
  return exited;
}

/** The engine reporting a payment of `amount` (another amount than asked: an underpayment). */
async function engineReports(paymentReference: string, amount: number): Promise<void> {
  const response = await fetch(`${harness.url}/api/sandbox/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      engineCallback({ paymentReference, amount, transactionID: `MP-${paymentReference}` }),
    ),
  });
  expect(response.status).toBe(200);
}

async function rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  return (await shop.query(sql, values)).rows as T[];
}

describe('three merchant processes, receivers and reconcilers, on one PostgreSQL store', () => {
  it('duplicated and dropped callbacks racing reconciler passes, one process killed -9: one effect per payment, every record final and true', async () => {
    const merchants = await Promise.all([startMerchant(), startMerchant(), startMerchant()]);
    await harness.control('faults', { callbacks: { duplicate: 3 } });

    type Plan = 'success' | 'failed' | 'underpaid' | 'dropped-success';
    const plans: Plan[] = ['success', 'failed', 'underpaid', 'dropped-success'];
    const payments = await Promise.all(
      Array.from({ length: 48 }, async (_, index) => {
        const merchant = merchants[index % 3] as Merchant;
        const amount = 1_000 + index;
        const payment = await pesakit.collection.initiateMno(
          { amount, msisdn: '255754123456', callback_url: `${merchant.url}/callback` },
          { merchantReference: `order-${index}` },
        );
        return { ...payment, amount, plan: plans[index % 4] as Plan };
      }),
    );

    const settle = async (payment: (typeof payments)[number]) => {
      if (payment.plan === 'underpaid') {
        await engineReports(payment.reference, payment.amount - 500);
      } else if (payment.plan === 'dropped-success') {
        await harness.control('faults', { callbacks: { drop: 3 } });
        await harness.control('collection/settle', {
          ref_id: payment.controlNumber,
          outcome: 'success',
        });
      } else {
        await harness.control('collection/settle', {
          ref_id: payment.controlNumber,
          outcome: payment.plan,
        });
      }
    };
    // Half settled, then one instance killed mid-way, then the rest.
    for (const payment of payments.slice(0, 24)) await settle(payment);
    expect(await stop(merchants[0] as Merchant, 'SIGKILL')).toBe(null);
    for (const payment of payments.slice(24)) await settle(payment);

    const survivors = merchants.slice(1);
    await eventually(
      async () =>
        (
          await rows<{ n: string }>(
            "select count(*) as n from pesakit_transactions where status in ('initiating', 'pending', 'unknown')",
          )
        )[0]?.n === '0',
      30_000,
      'every record final',
    );
    const expectedKind = (plan: Plan) =>
      plan === 'failed' ? 'failed' : plan === 'underpaid' ? 'review' : 'paid';
    await eventually(
      async () =>
        Number((await rows<{ n: string }>('select count(*) as n from effect_calls'))[0]?.n ?? 0) >=
          payments.length &&
        Number(
          (
            await rows<{ n: string }>(
              "select count(*) as n from pesakit_transactions where effect_status <> 'done'",
            )
          )[0]?.n ?? 1,
        ) === 0,
      30_000,
      'every effect done',
    ).catch(async (error) => {
      const open = await rows(
        "select merchant_reference, status, effect_status, effect_attempts, effect_lease_until, effect_last_error from pesakit_transactions where effect_status <> 'done'",
      );
      throw new Error(`${error.message}: ${JSON.stringify(open)}`);
    });
    // Let any stray second run surface before counting.
    await new Promise((resolve) => setTimeout(resolve, 800));

    // The handler runs at least once, until it completes (docs/callbacks.md, "The handler
    // contract"): a run the killed process started and never recorded done is run again by a
    // survivor. So a payment may show one run of the killed process beside one of a survivor —
    // never two runs of one process, never runs of two survivors.
    const effectRuns = await rows<{ kind: string; merchant_reference: string; pid: number }>(
      'select kind, merchant_reference, pid from effect_calls order by merchant_reference, kind',
    );
    const killedPid = (merchants[0] as Merchant).child.pid;
    const runsBy = (fromKilled: boolean) =>
      effectRuns
        .filter((run) => (run.pid === killedPid) === fromKilled)
        .map((run) => `${run.kind} ${run.merchant_reference}`);
    for (const fromKilled of [true, false]) {
      const keys = runsBy(fromKilled);
      expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    }
    const calls = effectRuns
      .filter(
        (run, index) =>
          effectRuns.findIndex(
            (other) =>
              other.kind === run.kind && other.merchant_reference === run.merchant_reference,
          ) === index,
      )
      .map(({ kind, merchant_reference }) => ({ kind, merchant_reference }));
    const expected = payments
      .map((payment) => ({
        kind: expectedKind(payment.plan),
        merchant_reference: payment.merchantReference,
      }))
      .sort((a, b) =>
        a.merchant_reference === b.merchant_reference
          ? a.kind.localeCompare(b.kind)
          : a.merchant_reference.localeCompare(b.merchant_reference),
      );
    expect(calls).toEqual(expected);

    for (const payment of payments) {
      const record = await store.records.get(payment.merchantReference);
      const truth = harness.sandbox.inspect.collection(payment.controlNumber);
      const want = payment.plan === 'underpaid' ? 'needs_review' : truth?.status;
      expect({ ref: payment.merchantReference, status: record?.status }).toEqual({
        ref: payment.merchantReference,
        status: want,
      });
    }

    // A person decides two of the underpaid ones with the CLI, from another process — the same
    // one twice at once. Each decision makes its effect due once; a survivor's effect runner
    // runs the handler the merchant registered, once.
    const underpaid = payments.filter((payment) => payment.plan === 'underpaid');
    const [accepted, refunded] = underpaid.map((payment) => payment.merchantReference);
    const cli = (reference: string, decision: string) =>
      runNode([cliPath, 'review', 'resolve', reference, decision, '--note', 'checked', '--json'], {
        env: { ...process.env, PESAKIT_STORE: database.url },
      });
    const runs = await Promise.all([
      cli(accepted as string, 'success'),
      cli(accepted as string, 'success'),
      cli(refunded as string, 'failed'),
    ]);
    expect(runs.map((run) => run.code).sort()).toEqual([0, 0, 1]);
    expect(runs.map((run) => run.stdout + run.stderr).join('')).not.toMatch(/UNHANDLED|password/i);
    await eventually(
      async () =>
        (
          await rows<{ n: string }>(
            "select count(*) as n from effect_calls where kind in ('paid', 'failed') and merchant_reference in ($1, $2)",
            [accepted, refunded],
          )
        )[0]?.n === '2',
      15_000,
      'the decisions’ handlers run',
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    // The review handler of an underpaid payment may have been started by the killed process and
    // run again by one survivor (at least once): never twice by survivors.
    const decidedRuns = await rows<{ kind: string; merchant_reference: string; pid: number }>(
      'select kind, merchant_reference, pid from effect_calls where merchant_reference in ($1, $2) order by merchant_reference, kind',
      [accepted, refunded],
    );
    const survivorKeys = decidedRuns
      .filter((run) => run.pid !== killedPid)
      .map((run) => `${run.kind} ${run.merchant_reference}`);
    expect(survivorKeys.filter((key, index) => survivorKeys.indexOf(key) !== index)).toEqual([]);
    const decided = decidedRuns
      .filter(
        (run, index) =>
          decidedRuns.findIndex(
            (other) =>
              other.kind === run.kind && other.merchant_reference === run.merchant_reference,
          ) === index,
      )
      .map(({ kind, merchant_reference }) => ({ kind, merchant_reference }));
    expect(decided).toEqual(
      [
        { kind: 'paid', merchant_reference: accepted },
        { kind: 'review', merchant_reference: accepted },
        { kind: 'failed', merchant_reference: refunded },
        { kind: 'review', merchant_reference: refunded },
      ].sort((a, b) =>
        a.merchant_reference === b.merchant_reference
          ? a.kind.localeCompare(b.kind)
          : (a.merchant_reference as string).localeCompare(b.merchant_reference as string),
      ),
    );

    for (const survivor of survivors) {
      expect(survivor.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
      expect(await stop(survivor, 'SIGTERM')).toBe(0);
    }
  }, 60_000);
  it('SIGTERM to a process in the middle of its work: it closes cleanly (exit 0, no unhandled rejection) and the other finishes every payment once', async () => {
    const merchants = await Promise.all([startMerchant(), startMerchant()]);
    await harness.control('faults', { callbacks: { duplicate: 2, drop: 0 } });
    const payments = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const merchant = merchants[index % 2] as Merchant;
        return pesakit.collection.initiateMno(
          {
            amount: 2_000 + index,
            msisdn: '255754123456',
            callback_url: `${merchant.url}/callback`,
          },
          { merchantReference: `term-${index}` },
        );
      }),
    );
    const settling = Promise.all(
      payments.map((payment) =>
        harness.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const leaving = merchants[0] as Merchant;
    expect(await stop(leaving, 'SIGTERM')).toBe(0);
    expect(leaving.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
    await settling;

    await eventually(
      async () =>
        (
          await rows<{ n: string }>(
            "select count(*) as n from effect_calls where merchant_reference like 'term-%'",
          )
        )[0]?.n === String(payments.length),
      30_000,
      'every payment credited',
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    const calls = await rows<{ merchant_reference: string; n: string }>(
      "select merchant_reference, count(*) as n from effect_calls where merchant_reference like 'term-%' group by merchant_reference having count(*) > 1",
    );
    expect(calls).toEqual([]);
    const stayed = merchants[1] as Merchant;
    expect(stayed.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
    expect(await stop(stayed, 'SIGTERM')).toBe(0);
  }, 60_000);
});
