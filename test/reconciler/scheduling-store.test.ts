import { afterAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { isLeaseLostError } from '../../src/references/schedule/lease-lost-error.js';
import { failure } from '../helpers/failure.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { seedOpenRecords } from '../helpers/sqlite-file-store.js';

// The schedule's rules (lease, release, the check log, the fence) are cases of
// pesakit/testing, which every store runs (test/unit/references/memory-store.test.ts and the
// SQLite and PostgreSQL store tests). Here: the ledger's fenced moves, and many PostgreSQL
// workers at once.

const start = Date.parse('2025-03-01T08:00:00.000Z');

function manualClock() {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('the reconciler moves records through its lease (a fenced ledger)', () => {
  it('a claim of platform references through a lost lease is refused, and attaches nothing', async () => {
    const clock = manualClock();
    const store = new MemoryReferenceStore({ now: clock.now });
    await seedOpenRecords(store, 1, 'unknown');
    const [lease] = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
    clock.advance(30_000);
    const [taken] = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
    const claim = { paymentReference: 'PAY-CLAIMED' };
    const stale = new Ledger(store).fenced(lease!.token);
    const error = await failure(stale.move('order-000', { to: 'pending', references: claim }));
    expect(isLeaseLostError(error)).toBe(true);
    expect(await store.records.get('order-000')).toMatchObject({
      status: 'unknown',
      paymentReference: null,
    });
    const holder = new Ledger(store).fenced(taken!.token);
    await holder.move('order-000', { to: 'pending', references: claim });
    expect(await store.records.get('order-000')).toMatchObject({
      status: 'pending',
      paymentReference: 'PAY-CLAIMED',
    });
    await store.close();
  });
});

let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

describe('postgres: concurrent workers split due records (FOR UPDATE SKIP LOCKED)', () => {
  it('four workers leasing at once never receive the same record', async () => {
    database ??= await createTestDatabase('scheduling');
    const stores = await Promise.all(
      [1, 2, 3, 4].map(() =>
        PostgresReferenceStore.open(database!.url, { schema: 'shared', maxConnections: 2 }),
      ),
    );
    await seedOpenRecords(stores[0]!, 200);
    const leased = (
      await Promise.all(
        stores.flatMap((store) =>
          [1, 2, 3].map(() => store.schedule.lease({ limit: 20, leaseMs: 60_000 })),
        ),
      )
    ).flat();
    const refs = leased.map((l) => l.record.merchantReference);
    expect(new Set(refs).size).toBe(refs.length);
    expect(refs.length).toBeGreaterThan(0);
    await Promise.all(stores.map((store) => store.close()));
  });
});
