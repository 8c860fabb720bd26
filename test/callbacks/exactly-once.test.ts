import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { merchantCallback } from './payloads.js';
import { eventually } from './receiver-server.js';

// Exactly-once under load and across a crash, with real processes sharing one PostgreSQL store.
// The payments are made through the SDK and settled with the sandbox's control API; the test
// then delivers every callback itself, five times, spread over four receiver processes.

/**
 * 200 by default: 1,000 deliveries racing over four processes are enough to prove one transition
 * and one onPaid each; throughput is measured in bench/. PESAKIT_CALLBACK_LOAD changes it.
 */
const paymentCount = Number(process.env['PESAKIT_CALLBACK_LOAD'] ?? 200);

const script = fileURLToPath(new URL('./fixtures/receiver-process.ts', import.meta.url));

let harness: Harness;
let database: TestDatabase;
let shop: pg.Pool;
let pesakit: Pesakit;
let store: PostgresReferenceStore;
const children: ChildProcess[] = [];

beforeAll(async () => {
  harness = await startHarness();
  database = await createTestDatabase('exactly_once');
  store = await PostgresReferenceStore.open(database.url, { maxConnections: 8 });
  pesakit = harness.client({ store });
  shop = new pg.Pool({ connectionString: database.url, max: 4 });
  await shop.query(
    'create table shop_credits (merchant_reference text primary key, amount numeric not null)',
  );
  await shop.query(
    'create table shop_paid_calls (id serial primary key, merchant_reference text not null, pid int not null)',
  );
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await shop?.end();
  await store?.close();
  await database?.drop();
  await harness?.close();
});

interface Receiver {
  child: ChildProcess;
  url: string;
}

async function startReceiver(mode: 'work' | 'ack-only'): Promise<Receiver> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, harness.url, database.url, JSON.stringify(accounts), mode],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
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
    child.once('exit', (code) => reject(new Error(`receiver exited (${code}): ${stderr}`)));
  });
  return { child, url };
}

async function stop(receiver: Receiver, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (receiver.child.exitCode !== null) return;
  const exited = new Promise((resolve) => receiver.child.once('exit', resolve));
  receiver.child.kill(signal);
  await exited;
}

/** Payments the platform has settled as paid, with the callback body it would push. */
async function settledPayments(prefix: string, count: number) {
  const queue = new PQueue({ concurrency: 16 });
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      queue.add(async () => {
        const merchantReference = `${prefix}-${index}`;
        const payment = await pesakit.collection.initiateMno(
          { amount: 1_000 + index, msisdn: '255754123456' },
          { merchantReference },
        );
        await harness.control('collection/settle', {
          ref_id: payment.controlNumber,
          outcome: 'success',
        });
        const body = JSON.stringify(
          merchantCallback({
            paymentReference: payment.reference,
            controlNumber: payment.controlNumber,
            amount: 1_000 + index,
          }),
        );
        return { merchantReference, body };
      }),
    ),
  );
}

async function deliver(url: string, body: string): Promise<number> {
  const response = await fetch(`${url}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

async function count(sql: string, values: unknown[] = []): Promise<number> {
  const { rows } = await shop.query<{ n: string }>(sql, values);
  return Number(rows[0]?.n ?? 0);
}

describe('exactly once across processes sharing one PostgreSQL store', () => {
  it(`${paymentCount} payments × 5 duplicate callbacks on 4 receiver processes: one transition, one onPaid each`, async () => {
    // The receivers start (tsx compiles them) while the payments are made.
    const starting = Promise.all([1, 2, 3, 4].map(() => startReceiver('work')));
    const payments = await settledPayments('load', paymentCount);
    const receivers = await starting;
    try {
      const queue = new PQueue({ concurrency: 64 });
      const statuses = await Promise.all(
        payments.flatMap(({ body }, index) =>
          [0, 1, 2, 3, 4].map((copy) =>
            queue.add(() => deliver((receivers[(index + copy) % 4] as Receiver).url, body)),
          ),
        ),
      );
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      await eventually(
        async () =>
          (await count(
            "select count(*) as n from pesakit_callback_inbox where status <> 'done'",
          )) === 0,
        120_000,
        'every inbox entry processed',
      );
      await eventually(
        async () => (await count('select count(*) as n from shop_credits')) === payments.length,
        60_000,
        'every order credited',
      );
      expect(await count('select count(*) as n from shop_paid_calls')).toBe(payments.length);
      expect(
        await count("select count(*) as n from pesakit_transactions where status = 'success'"),
      ).toBe(payments.length);
      expect(await count('select count(*) as n from pesakit_callback_inbox')).toBe(payments.length);
      expect(
        await count('select coalesce(sum(duplicates), 0) as n from pesakit_callback_inbox'),
      ).toBe(payments.length * 4);
      // The work really was shared: more than one process ran handlers.
      expect(await count('select count(distinct pid) as n from shop_paid_calls')).toBeGreaterThan(
        1,
      );
    } finally {
      await Promise.all(receivers.map((receiver) => stop(receiver, 'SIGTERM')));
    }
  }, 480_000);

  it('kill -9 after acknowledging a batch: a restarted worker processes every callback, none twice', async () => {
    const payments = await settledPayments('crash', 40);
    const acknowledging = await startReceiver('ack-only');
    const statuses = await Promise.all(
      payments.flatMap(({ body }) => [
        deliver(acknowledging.url, body),
        deliver(acknowledging.url, body),
      ]),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    await stop(acknowledging, 'SIGKILL');
    expect(
      await count(
        "select count(*) as n from pesakit_callback_inbox where payment_reference in (select payment_reference from pesakit_transactions where merchant_reference like 'crash-%') and status = 'pending'",
      ),
    ).toBe(payments.length);

    const worker = await startReceiver('work');
    try {
      await eventually(
        async () =>
          (await count(
            "select count(*) as n from shop_credits where merchant_reference like 'crash-%'",
          )) === payments.length,
        60_000,
        'every acknowledged callback processed',
      );
      expect(
        await count(
          "select count(*) as n from shop_paid_calls where merchant_reference like 'crash-%'",
        ),
      ).toBe(payments.length);
    } finally {
      await stop(worker, 'SIGTERM');
    }
  }, 120_000);
});
