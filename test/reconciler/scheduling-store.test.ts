import { afterAll, describe, expect, it } from 'vitest';
import { isStoreInputError } from '../../src/errors/store-input-error.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { MemoryReferenceStore, type ReferenceStore } from '../../src/references/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { isLeaseLostError } from '../../src/references/schedule/lease-lost-error.js';
import type { LeasedRecord } from '../../src/references/schedule/types.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { failure } from '../helpers/failure.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { seedOpenRecords, temporarySqliteFiles } from '../helpers/sqlite-file-store.js';

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

type Open = (now: () => Date) => Promise<ReferenceStore>;

function describeScheduling(name: string, open: Open) {
  describe(`${name}: reconciler scheduling (leaseDue / releaseLease / fenced transition)`, () => {
    it('leases only what is due, in keyset pages, and never the same record twice in a pass', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 5);
      const first = await store.leaseDue({ limit: 2, leaseMs: 60_000 });
      const second = await store.leaseDue({ limit: 2, leaseMs: 60_000 });
      const third = await store.leaseDue({ limit: 2, leaseMs: 60_000 });
      const refs = [...first, ...second, ...third].map((l) => l.record.merchantReference);
      expect(refs).toEqual(['order-000', 'order-001', 'order-002', 'order-003', 'order-004']);
      expect(await store.leaseDue({ limit: 2, leaseMs: 60_000 })).toEqual([]);
      expect(new Set([...first, ...second, ...third].map((l) => l.token)).size).toBe(5);
      await store.close();
    });

    it('a released record is not due until its next check time; its check is counted', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 2);
      const leased = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
      for (const { record, token } of leased) {
        const released = await store.releaseLease(record.merchantReference, token, {
          nextCheckAt: new Date(start + 5_000),
        });
        expect(released).toBe(true);
      }
      const after = await store.get('order-000');
      expect(after?.checkCount).toBe(1);
      expect(after?.lastCheckedAt).toEqual(new Date(start));
      clock.advance(4_999);
      expect(await store.leaseDue({ limit: 10, leaseMs: 60_000 })).toEqual([]);
      clock.advance(1);
      const again = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
      expect(again.map((l) => l.record.merchantReference)).toEqual(['order-000', 'order-001']);
      expect(again[0]?.nextCheckAt).toEqual(new Date(start + 5_000));
      await store.close();
    });

    it('force leases records not yet due, still once per pass', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 3);
      for (const { record, token } of await store.leaseDue({ limit: 10, leaseMs: 60_000 })) {
        await store.releaseLease(record.merchantReference, token, {
          nextCheckAt: new Date(start + 3_600_000),
        });
      }
      clock.advance(1_000);
      const passStartedAt = clock.now();
      expect(await store.leaseDue({ limit: 10, leaseMs: 60_000, passStartedAt })).toEqual([]);
      const forced = await store.leaseDue({
        limit: 2,
        leaseMs: 60_000,
        force: true,
        passStartedAt,
      });
      expect(forced).toHaveLength(2);
      for (const { record, token } of forced) {
        await store.releaseLease(record.merchantReference, token, {
          nextCheckAt: new Date(start + 3_600_000),
        });
      }
      const rest = await store.leaseDue({ limit: 2, leaseMs: 60_000, force: true, passStartedAt });
      expect(rest.map((l) => l.record.merchantReference)).toEqual(['order-002']);
      await store.close();
    });

    it('leaves initiating records written since initiatingBefore alone, forced or not', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      const intent = (merchantReference: string) =>
        store.createIntent({
          merchantReference,
          product: 'collection',
          flow: 'mno',
          amount: 5000,
          msisdn: '255754123456',
        });
      await intent('initiating-old');
      clock.advance(10_000);
      await intent('initiating-young');
      await seedOpenRecords(store, 1); // order-000, pending, as young as the young one
      const initiatingBefore = new Date(start + 5_000);
      const references = (leased: LeasedRecord[]) =>
        leased.map((l) => l.record.merchantReference).sort();
      const onlyInitiating = await store.leaseDue({
        limit: 10,
        leaseMs: 1,
        statuses: ['initiating'],
        initiatingBefore,
      });
      expect(references(onlyInitiating)).toEqual(['initiating-old']);
      clock.advance(1); // those leases expire
      const forced = await store.leaseDue({
        limit: 10,
        leaseMs: 1,
        force: true,
        initiatingBefore,
      });
      expect(references(forced)).toEqual(['initiating-old', 'order-000']);
      clock.advance(1);
      // Without the option every initiating record may be leased, as before.
      expect(references(await store.leaseDue({ limit: 10, leaseMs: 1, force: true }))).toEqual([
        'initiating-old',
        'initiating-young',
        'order-000',
      ]);
      const bad = await failure(
        store.leaseDue({ limit: 1, leaseMs: 1, initiatingBefore: new Date(Number.NaN) }),
      );
      expect(isStoreInputError(bad)).toBe(true);
      expect(String(bad)).toMatch(/initiatingBefore/);
      await store.close();
    });

    it('skips final records and records leased by another worker until the lease expires', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 2);
      await store.transition('order-001', 'success');
      const [lease] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      expect(lease?.record.merchantReference).toBe('order-000');
      clock.advance(29_999);
      expect(await store.leaseDue({ limit: 10, leaseMs: 30_000 })).toEqual([]);
      clock.advance(1);
      const [taken] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      expect(taken?.record.merchantReference).toBe('order-000');
      expect(taken?.token).not.toBe(lease?.token);
      // The first worker's lease is gone: its release and its final write are refused.
      expect(
        await store.releaseLease('order-000', lease!.token, { nextCheckAt: clock.now() }),
      ).toBe(false);
      const error = await failure(
        store.transition('order-000', 'success', { leaseToken: lease!.token }),
      );
      expect(isLeaseLostError(error)).toBe(true);
      expect((await store.get('order-000'))?.status).toBe('pending');
      // The holder's write goes through.
      const { changed } = await store.transition('order-000', 'success', {
        leaseToken: taken!.token,
      });
      expect(changed).toBe(true);
      await store.close();
    });

    it('a claim of platform references through a lost lease is refused, and attaches nothing', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 1, 'unknown');
      const [lease] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      clock.advance(30_000);
      const [taken] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      const claim = { paymentReference: 'PAY-CLAIMED' };
      const stale = new Ledger(store).fenced(lease!.token);
      const error = await failure(stale.move('order-000', { to: 'pending', references: claim }));
      expect(isLeaseLostError(error)).toBe(true);
      expect(await store.get('order-000')).toMatchObject({
        status: 'unknown',
        paymentReference: null,
      });
      const holder = new Ledger(store).fenced(taken!.token);
      await holder.move('order-000', { to: 'pending', references: claim });
      expect(await store.get('order-000')).toMatchObject({
        status: 'pending',
        paymentReference: 'PAY-CLAIMED',
      });
      await store.close();
    });

    it('keeps the last observations as evidence; an uncounted release only reschedules', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 1);
      for (let i = 0; i < 22; i += 1) {
        const [lease] = await store.leaseDue({ limit: 1, leaseMs: 1_000, force: true });
        expect(lease?.observations).toHaveLength(Math.min(i, 20));
        await store.releaseLease('order-000', lease!.token, {
          nextCheckAt: clock.now(),
          observation: { check: i, at: clock.now() },
        });
        clock.advance(1);
      }
      const [lease] = await store.leaseDue({ limit: 1, leaseMs: 1_000, force: true });
      expect(lease?.observations?.[0]).toEqual({ check: 2, at: new Date(start + 2).toISOString() });
      expect(lease?.observations?.at(-1)).toMatchObject({ check: 21 });
      expect((await store.get('order-000'))?.checkCount).toBe(22);
      await store.releaseLease('order-000', lease!.token, {
        nextCheckAt: new Date(start + 60_000),
        counted: false,
      });
      const after = await store.get('order-000');
      expect(after?.checkCount).toBe(22);
      expect(after?.lastCheckedAt).toEqual(new Date(start + 21));
      expect(await store.leaseDue({ limit: 1, leaseMs: 1_000 })).toEqual([]);
      await store.close();
    });

    it('releaseLease writes the check, its next due time and its observation, fenced by token', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 4);
      const leased = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      expect(leased).toHaveLength(4);
      const [a, b, c, d] = leased as [LeasedRecord, LeasedRecord, LeasedRecord, LeasedRecord];
      // d's lease expires and another worker takes it: d's old token must write nothing.
      clock.advance(30_000);
      const [taken] = await store.leaseDue({ limit: 1, leaseMs: 30_000 });
      expect(taken?.record.merchantReference).toBe('order-000');
      const retaken = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      expect(retaken.map((l) => l.record.merchantReference)).toEqual([
        'order-001',
        'order-002',
        'order-003',
      ]);
      const tokens = new Map(retaken.map((l) => [l.record.merchantReference, l.token]));
      clock.advance(10);
      const releases = [
        {
          merchantReference: 'order-001',
          token: tokens.get('order-001')!,
          nextCheckAt: new Date(start + 3_600_000),
          observation: { answer: 'pending', n: 1.5, text: 'ünïcode "quoted"' },
        },
        {
          merchantReference: 'order-002',
          token: tokens.get('order-002')!,
          nextCheckAt: new Date(start + 7_200_000),
          counted: false,
        },
        {
          merchantReference: 'order-003',
          token: tokens.get('order-003')!,
          nextCheckAt: new Date(start + 60_000),
          checkedAt: new Date(start + 5),
          observation: null,
        },
        // An old token (taken over): refused, nothing written.
        { merchantReference: 'order-000', token: a.token, nextCheckAt: new Date(start) },
      ];
      const results = [];
      for (const { merchantReference, token, ...release } of releases) {
        results.push(await store.releaseLease(merchantReference, token, release));
      }
      expect(results).toEqual([true, true, true, false]);
      expect(b.token).not.toBe(tokens.get('order-001'));
      expect(c.token).not.toBe(tokens.get('order-002'));
      expect(d.token).not.toBe(tokens.get('order-003'));

      const one = await store.get('order-001');
      expect(one).toMatchObject({ checkCount: 1, lastCheckedAt: new Date(start + 30_010) });
      const two = await store.get('order-002');
      expect(two).toMatchObject({ checkCount: 0, lastCheckedAt: null });
      const three = await store.get('order-003');
      expect(three).toMatchObject({ checkCount: 1, lastCheckedAt: new Date(start + 5) });
      // order-000 is still the other worker's: its release goes through, the old one did not.
      expect(
        await store.releaseLease('order-000', taken!.token, { nextCheckAt: new Date(start) }),
      ).toBe(true);
      expect((await store.get('order-000'))?.checkCount).toBe(1);

      // Each record is due again at its own time, with its observation kept as evidence.
      clock.advance(1);
      const forced = await store.leaseDue({ limit: 10, leaseMs: 1_000, force: true });
      const byRef = new Map(forced.map((l) => [l.record.merchantReference, l]));
      expect(byRef.get('order-001')?.observations).toEqual([
        { answer: 'pending', n: 1.5, text: 'ünïcode "quoted"' },
      ]);
      expect(byRef.get('order-001')?.nextCheckAt).toEqual(new Date(start + 3_600_000));
      expect(byRef.get('order-002')?.observations).toEqual([]);
      expect(byRef.get('order-002')?.nextCheckAt).toEqual(new Date(start + 7_200_000));
      expect(byRef.get('order-003')?.observations).toEqual([null]);
      await store.close();
    });

    it('releaseLease keeps the last observations, and refuses bad input naming it', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 2);
      for (let i = 0; i < 22; i += 1) {
        const leases = await store.leaseDue({ limit: 2, leaseMs: 1_000, force: true });
        expect(leases).toHaveLength(2);
        for (const lease of leases) {
          const released = await store.releaseLease(lease.record.merchantReference, lease.token, {
            nextCheckAt: clock.now(),
            observation: { check: i },
          });
          expect(released).toBe(true);
        }
        clock.advance(1);
      }
      const leases = await store.leaseDue({ limit: 2, leaseMs: 1_000, force: true });
      for (const lease of leases) {
        expect(lease.observations).toHaveLength(20);
        expect(lease.observations?.[0]).toEqual({ check: 2 });
        expect(lease.observations?.at(-1)).toEqual({ check: 21 });
        expect(lease.record.checkCount).toBe(22);
      }
      const [first] = leases as [LeasedRecord, LeasedRecord];
      const bad = await failure(
        store.releaseLease('order-000', first.token, {
          nextCheckAt: clock.now(),
          observation: { amount: 10n },
        }),
      );
      expect(isStoreInputError(bad)).toBe(true);
      expect(String(bad)).toMatch(/observation/);
      // Nothing was written: both leases still held, no check counted again.
      expect(await store.leaseDue({ limit: 2, leaseMs: 1_000, force: true })).toEqual([]);
      expect((await store.get('order-000'))?.checkCount).toBe(22);
      expect(await store.readObservations('order-000')).toHaveLength(20);
      await store.close();
    });

    it('leases without the check log on request, and reads it back exactly, oldest first', async () => {
      const clock = manualClock();
      const store = await open(clock.now);
      await seedOpenRecords(store, 2);
      // Observations the store must keep exactly as given: key order, nesting, arrays (one
      // entry, never spliced into the log), strings, null, unicode and quotes.
      const observations: unknown[] = [
        { z: 1, a: { y: [1, 2, { b: null }], x: 'ünïcode "quoted" \\ \n' } },
        [1, 2, 3],
        'just text',
        null,
        12.5,
      ];
      for (const observation of observations) {
        const leases = await store.leaseDue({
          limit: 2,
          leaseMs: 1_000,
          force: true,
          observations: false,
        });
        expect(leases).toHaveLength(2);
        for (const lease of leases) expect(lease).not.toHaveProperty('observations');
        const [first, second] = leases as [LeasedRecord, LeasedRecord];
        expect(
          await store.releaseLease('order-000', first.token, {
            nextCheckAt: clock.now(),
            observation,
          }),
        ).toBe(true);
        expect(
          await store.releaseLease('order-001', second.token, { nextCheckAt: clock.now() }),
        ).toBe(true);
        clock.advance(1);
      }
      const read = await store.readObservations('order-000');
      expect(read).toEqual(observations);
      expect(JSON.stringify(read)).toBe(JSON.stringify(observations));
      expect(await store.readObservations('order-001')).toEqual([]);
      // Read with the lease, the log is the same.
      const [lease] = await store.leaseDue({ limit: 1, leaseMs: 1_000, force: true });
      expect(lease?.observations).toEqual(observations);
      await store.releaseLease('order-000', lease!.token, {
        nextCheckAt: clock.now(),
        observation: { last: true },
      });
      expect((await store.readObservations('order-000')).at(-1)).toEqual({ last: true });
      const missing = await failure(store.readObservations('order-999'));
      expect(String(missing)).toMatch(/order-999/);
      const bad = await failure(store.readObservations(''));
      expect(isStoreInputError(bad)).toBe(true);
      const badOption = await failure(
        store.leaseDue({ limit: 1, leaseMs: 1_000, observations: 'no' as unknown as boolean }),
      );
      expect(String(badOption)).toMatch(/observations must be true or false/);
      await store.close();
    });

    it('refuses bad options naming the field, and changes nothing', async () => {
      const store = await open(manualClock().now);
      await seedOpenRecords(store, 1);
      const error = await failure(store.leaseDue({ limit: 0, leaseMs: 1000 }));
      expect(isStoreInputError(error)).toBe(true);
      expect(String(error)).toMatch(/limit/);
      const bad = await failure(
        store.releaseLease('order-000', 'x', { nextCheckAt: new Date(Number.NaN) }),
      );
      expect(String(bad)).toMatch(/nextCheckAt/);
      expect(await store.leaseDue({ limit: 5, leaseMs: 1000 })).toHaveLength(1);
      await store.close();
    });
  });
}

describeScheduling('memory', async (now) => new MemoryReferenceStore({ now }));
describeScheduling('sqlite', (now) => SqliteReferenceStore.open(':memory:', { now }));

// A file opened by path: WAL, synchronous = FULL, leases in transactions begun IMMEDIATE.
const newFile = temporarySqliteFiles('scheduling');
describeScheduling('sqlite file', (now) => SqliteReferenceStore.open(newFile(), { now }));

let database: TestDatabase | undefined;
let schemas = 0;
describeScheduling('postgres', async (now) => {
  database ??= await createTestDatabase('scheduling');
  schemas += 1;
  return PostgresReferenceStore.open(database.url, {
    now,
    schema: `s${schemas}`,
    maxConnections: 3,
  });
});
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
          [1, 2, 3].map(() => store.leaseDue({ limit: 20, leaseMs: 60_000 })),
        ),
      )
    ).flat();
    const refs = leased.map((l) => l.record.merchantReference);
    expect(new Set(refs).size).toBe(refs.length);
    expect(refs.length).toBeGreaterThan(0);
    await Promise.all(stores.map((store) => store.close()));
  });
});
