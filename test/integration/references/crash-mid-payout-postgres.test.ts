import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { eventually } from '../../callbacks/receiver-server.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { accounts, type Harness, startHarness } from '../../helpers/sandbox-harness.js';

// The reconciler with real processes: a merchant instance sends a payout
// and is killed with SIGKILL while the request is out — the platform took the money, the answer
// never came back, the record is left `initiating` with no refid. Two other instances (callback
// receiver and reconciler each, from the built package) share the PostgreSQL store. What must
// hold: the survivors find the payout in the history and settle the record (never `failed`:
// a failed payout would be paid again), onSent runs once, the wallet was debited once, and no
// survivor crashes.

const merchantScript = fileURLToPath(new URL('./fixtures/merchant-process.mjs', import.meta.url));
const payOutScript = fileURLToPath(new URL('./fixtures/pay-out-process.mjs', import.meta.url));

let harness: Harness;
let database: TestDatabase;
let shop: pg.Pool;
let store: PostgresReferenceStore;
const children: ChildProcess[] = [];

beforeAll(async () => {
  harness = await startHarness();
  database = await createTestDatabase('crash_mid_payout');
  store = await PostgresReferenceStore.open(database.url, { maxConnections: 2 });
  shop = new pg.Pool({ connectionString: database.url, max: 2 });
  await shop.query(
    'create table effect_calls (id serial primary key, kind text not null, merchant_reference text, pid int not null)',
  );
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 100_000,
  });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await shop?.end();
  await store?.close();
  await database?.drop();
  await harness?.close();
});

function start(
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (ready.test(stdout)) resolve({ child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}): ${stderr}`)));
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill(signal);
  return exited;
}

const balance = () =>
  harness.sandbox.inspect.wallet('disbursement', accounts.disbursement.email)?.balance;

describe('a merchant process killed while its payout is out', () => {
  it('the survivors settle it from the history: success, onSent once, the wallet debited once', async () => {
    const survivors = await Promise.all(
      [1, 2].map(() =>
        start(
          [
            merchantScript,
            harness.url,
            database.url,
            JSON.stringify(accounts),
            JSON.stringify({ initiatingGraceMs: 500 }),
          ],
          /READY/,
        ),
      ),
    );
    const before = balance();
    // Every platform answer now comes 3 s after the platform acted.
    await harness.control('faults', { latencyMs: 3_000 });
    const payer = await start(
      [payOutScript, harness.url, database.url, JSON.stringify(accounts), 'payout-1'],
      /SENDING/,
    );
    await eventually(() => balance() !== before, 10_000, 'the platform to take the payout');
    expect(await stop(payer.child, 'SIGKILL')).toBe(null);
    await harness.control('faults', { latencyMs: 0 });
    expect((await store.records.get('payout-1'))?.status).toBe('initiating');

    const record = await eventually(
      async () => {
        const current = await store.records.get('payout-1');
        return current?.status === 'success' || current?.status === 'failed' ? current : undefined;
      },
      20_000,
      'the record to settle',
    );
    expect(record.status).toBe('success');
    await eventually(
      async () =>
        (await shop.query("select 1 from effect_calls where merchant_reference = 'payout-1'"))
          .rowCount === 1,
      10_000,
      'onSent',
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    const calls = await shop.query('select kind, merchant_reference from effect_calls');
    expect(calls.rows).toEqual([{ kind: 'sent', merchant_reference: 'payout-1' }]);
    // Debited once: the amount and its charge (1 %, at least 100).
    expect((before as number) - (balance() as number)).toBe(20_200);

    for (const survivor of survivors) {
      expect(survivor.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
      expect(await stop(survivor.child, 'SIGTERM')).toBe(0);
    }
  }, 45_000);
});
