import { describe, expect, it } from 'vitest';
import { isTransactionNotFoundError } from '../../src/errors/transaction-not-found-error.js';
import { ReleaseQueue } from '../../src/reconciler/release-queue.js';
import { MemoryReferenceStore, type ReferenceStore } from '../../src/references/index.js';
import type { LeasedRecord, LeaseRelease } from '../../src/references/schedule/types.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';

/** The store as it is, counting the batch writes that reach it. */
function counting(store: ReferenceStore) {
  const batches: number[] = [];
  const proxy = new Proxy(store, {
    get(target, property) {
      if (property === 'releaseLeases') {
        return (releases: readonly LeaseRelease[]) => {
          batches.push(releases.length);
          return target.releaseLeases(releases);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, batches };
}

async function seeded(store: ReferenceStore, count: number): Promise<LeasedRecord[]> {
  for (let i = 0; i < count; i += 1) {
    const merchantReference = `queue-${String(i).padStart(3, '0')}`;
    await store.createIntent({
      merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: 1_000 + i,
      msisdn: '255754123456',
    });
    await store.transition(merchantReference, 'pending');
  }
  return store.leaseDue({ limit: count, leaseMs: 60_000 });
}

const release = (leased: LeasedRecord, observation?: unknown): LeaseRelease => ({
  merchantReference: leased.record.merchantReference,
  token: leased.token,
  nextCheckAt: new Date(Date.now() + 3_600_000),
  ...(observation === undefined ? {} : { observation }),
});

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const [name, open] of [
  ['memory', async () => new MemoryReferenceStore()],
  ['sqlite', () => SqliteReferenceStore.open(':memory:')],
] as const) {
  describe(`${name}: the reconciler's release queue (group commit of finished checks)`, () => {
    it('writes a batch once it is full, the rest on flush: one store call per batch', async () => {
      const base = await open();
      const { store, batches } = counting(base);
      const leased = await seeded(base, 5);
      const errors: unknown[] = [];
      const queue = new ReleaseQueue(store, {
        maxBatch: 2,
        maxDelayMs: 60_000,
        onError: (error) => errors.push(error),
      });
      queue.add(release(leased[0]!, { n: 0 }));
      // Not written yet: one release waits for company.
      expect((await base.get('queue-000'))?.checkCount).toBe(0);
      queue.add(release(leased[1]!, { n: 1 }));
      queue.add(release(leased[2]!));
      queue.add(release(leased[3]!));
      queue.add(release(leased[4]!));
      await queue.flush();
      expect(batches).toEqual([2, 2, 1]);
      for (const { record } of leased) {
        expect((await base.get(record.merchantReference))?.checkCount).toBe(1);
      }
      // Leases ended: nothing is due for an hour, and a forced pass may lease them again.
      expect(await base.leaseDue({ limit: 10, leaseMs: 1_000 })).toEqual([]);
      const again = await base.leaseDue({
        limit: 10,
        leaseMs: 1_000,
        force: true,
        passStartedAt: new Date(Date.now() + 1_000),
      });
      expect(again).toHaveLength(5);
      expect(again.find((l) => l.record.merchantReference === 'queue-000')?.observations).toEqual([
        { n: 0 },
      ]);
      expect(errors).toEqual([]);
      await base.close();
    });

    it('writes a lone release after maxDelayMs without a flush', async () => {
      const base = await open();
      const [leased] = await seeded(base, 1);
      const queue = new ReleaseQueue(base, { maxBatch: 100, maxDelayMs: 20, onError: () => {} });
      queue.add(release(leased!));
      await until(
        async () => (await base.get('queue-000'))?.checkCount === 1,
        'the timer wrote the release',
      );
      await base.close();
    });

    it('a batch the store refuses is written one by one: the others are not lost', async () => {
      const base = await open();
      const { store, batches } = counting(base);
      const [first, second] = await seeded(base, 2);
      const errors: unknown[] = [];
      const queue = new ReleaseQueue(store, {
        maxBatch: 100,
        maxDelayMs: 60_000,
        onError: (error) => errors.push(error),
      });
      queue.add(release(first!));
      // A bad release in the batch (its next check time is not a date): the store refuses the
      // whole call and changes nothing.
      queue.add({ ...release(second!), nextCheckAt: new Date(Number.NaN) });
      await queue.flush();
      expect(batches).toEqual([2]);
      expect((await base.get('queue-000'))?.checkCount).toBe(1);
      expect((await base.get('queue-001'))?.checkCount).toBe(0);
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/nextCheckAt/);
      await base.close();
    });

    it('the same record twice goes into two batches; the stale second release writes nothing', async () => {
      const base = await open();
      const { store, batches } = counting(base);
      const [leased] = await seeded(base, 1);
      const errors: unknown[] = [];
      const queue = new ReleaseQueue(store, {
        maxBatch: 100,
        maxDelayMs: 60_000,
        onError: (error) => errors.push(error),
      });
      queue.add(release(leased!));
      queue.add(release(leased!));
      await queue.flush();
      expect(batches).toEqual([1, 1]);
      expect((await base.get('queue-000'))?.checkCount).toBe(1);
      expect(errors).toEqual([]);
      await base.close();
    });
  });
}

describe('release queue and a missing record', () => {
  it('reports the record the store cannot find and still writes the rest', async () => {
    const store = new MemoryReferenceStore();
    const [leased] = await seeded(store, 1);
    const errors: unknown[] = [];
    const queue = new ReleaseQueue(store, {
      maxBatch: 100,
      maxDelayMs: 60_000,
      onError: (error) => errors.push(error),
    });
    queue.add(release(leased!));
    queue.add({ merchantReference: 'queue-missing', token: 't', nextCheckAt: new Date() });
    await queue.flush();
    expect((await store.get('queue-000'))?.checkCount).toBe(1);
    expect(errors).toHaveLength(1);
    expect(isTransactionNotFoundError(errors[0])).toBe(true);
  });
});
