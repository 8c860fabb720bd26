import { isStoreInputError } from '../../errors/store-input-error.js';
import type { LeasedRecord } from '../../references/schedule/types.js';
import { equal, isError, matches, messageMatches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { merchantReferences, openRecords } from '../fixtures.js';

/** A check's end: the lease holder writes the check, its next due time and its evidence, once. */
export const releaseCases = rule(
  'releases: the holder writes the check, its next due time and its evidence',
  (it) => {
    it('keeps the last observations as evidence; an uncounted release only reschedules', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 1);
      for (let check = 0; check < 22; check += 1) {
        const [lease] = await store.schedule.lease({ limit: 1, leaseMs: 1_000, force: true });
        truthy(lease, `check ${check}: a forced lease found nothing`);
        equal(
          lease.observations?.length,
          Math.min(check, 20),
          `observations before check ${check}`,
        );
        await store.schedule.release('order-000', lease.token, {
          nextCheckAt: t.clock.now(),
          observation: { check, at: t.clock.now() },
        });
        t.clock.advance(1);
      }
      const [lease] = await store.schedule.lease({ limit: 1, leaseMs: 1_000, force: true });
      truthy(lease, 'a forced lease found nothing');
      equal(lease.observations?.[0], { check: 2, at: t.clock.at(2).toISOString() });
      matches(lease.observations?.at(-1), { check: 21 });
      equal((await store.records.get('order-000'))?.checkCount, 22);
      await store.schedule.release('order-000', lease.token, {
        nextCheckAt: t.clock.at(60_000),
        counted: false,
      });
      const after = await store.records.get('order-000');
      equal(after?.checkCount, 22, 'an uncounted release counted the check');
      equal(after?.lastCheckedAt, t.clock.at(21));
      equal(await store.schedule.lease({ limit: 1, leaseMs: 1_000 }), []);
    });

    it('schedule.release writes the check, its next due time and its observation, fenced by token', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 4);
      const leased = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
      equal(leased.length, 4);
      const [a, b, c, d] = leased as [LeasedRecord, LeasedRecord, LeasedRecord, LeasedRecord];
      // The leases expire and other workers take the records: the old tokens must write nothing.
      t.clock.advance(30_000);
      const [taken] = await store.schedule.lease({ limit: 1, leaseMs: 30_000 });
      truthy(taken, 'an expired lease was not leased again');
      equal(taken.record.merchantReference, 'order-000');
      const retaken = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
      equal(merchantReferences(retaken), ['order-001', 'order-002', 'order-003']);
      const tokens = new Map(retaken.map((lease) => [lease.record.merchantReference, lease.token]));
      t.clock.advance(10);
      const releases = [
        {
          merchantReference: 'order-001',
          token: tokens.get('order-001') ?? '',
          nextCheckAt: t.clock.at(3_600_000),
          observation: { answer: 'pending', n: 1.5, text: 'ünïcode "quoted"' },
        },
        {
          merchantReference: 'order-002',
          token: tokens.get('order-002') ?? '',
          nextCheckAt: t.clock.at(7_200_000),
          counted: false,
        },
        {
          merchantReference: 'order-003',
          token: tokens.get('order-003') ?? '',
          nextCheckAt: t.clock.at(60_000),
          checkedAt: t.clock.at(5),
          observation: null,
        },
        // An old token (taken over): refused, nothing written.
        { merchantReference: 'order-000', token: a.token, nextCheckAt: t.clock.at(0) },
      ];
      const results = [];
      for (const { merchantReference, token, ...release } of releases) {
        results.push(await store.schedule.release(merchantReference, token, release));
      }
      equal(results, [true, true, true, false]);
      truthy(b.token !== tokens.get('order-001'), 'a new lease reused the old token');
      truthy(c.token !== tokens.get('order-002'), 'a new lease reused the old token');
      truthy(d.token !== tokens.get('order-003'), 'a new lease reused the old token');

      matches(await store.records.get('order-001'), {
        checkCount: 1,
        lastCheckedAt: t.clock.at(30_010),
      });
      matches(await store.records.get('order-002'), { checkCount: 0, lastCheckedAt: null });
      matches(await store.records.get('order-003'), {
        checkCount: 1,
        lastCheckedAt: t.clock.at(5),
      });
      // order-000 is still the other worker's: its release goes through, the old one did not.
      equal(
        await store.schedule.release('order-000', taken.token, { nextCheckAt: t.clock.at(0) }),
        true,
      );
      equal((await store.records.get('order-000'))?.checkCount, 1);

      // Each record is due again at its own time, with its observation kept as evidence.
      t.clock.advance(1);
      const forced = await store.schedule.lease({ limit: 10, leaseMs: 1_000, force: true });
      const byReference = new Map(forced.map((lease) => [lease.record.merchantReference, lease]));
      equal(byReference.get('order-001')?.observations, [
        { answer: 'pending', n: 1.5, text: 'ünïcode "quoted"' },
      ]);
      equal(byReference.get('order-001')?.nextCheckAt, t.clock.at(3_600_000));
      equal(byReference.get('order-002')?.observations, []);
      equal(byReference.get('order-002')?.nextCheckAt, t.clock.at(7_200_000));
      equal(byReference.get('order-003')?.observations, [null]);
    });

    it('schedule.release keeps the last observations, and refuses bad input naming it', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 2);
      for (let check = 0; check < 22; check += 1) {
        const leases = await store.schedule.lease({ limit: 2, leaseMs: 1_000, force: true });
        equal(leases.length, 2, `check ${check}: forced leases`);
        for (const lease of leases) {
          const released = await store.schedule.release(
            lease.record.merchantReference,
            lease.token,
            {
              nextCheckAt: t.clock.now(),
              observation: { check },
            },
          );
          equal(released, true);
        }
        t.clock.advance(1);
      }
      const leases = await store.schedule.lease({ limit: 2, leaseMs: 1_000, force: true });
      for (const lease of leases) {
        equal(lease.observations?.length, 20);
        equal(lease.observations?.[0], { check: 2 });
        equal(lease.observations?.at(-1), { check: 21 });
        equal(lease.record.checkCount, 22);
      }
      const [first] = leases;
      truthy(first, 'a forced lease found nothing');
      const bad = await rejection(
        store.schedule.release('order-000', first.token, {
          nextCheckAt: t.clock.now(),
          observation: { amount: 10n },
        }),
      );
      isError(bad, isStoreInputError, 'StoreInputError');
      messageMatches(bad, /observation/);
      // Nothing was written: both leases still held, no check counted again.
      equal(await store.schedule.lease({ limit: 2, leaseMs: 1_000, force: true }), []);
      equal((await store.records.get('order-000'))?.checkCount, 22);
      equal((await store.schedule.observations('order-000')).length, 20);
    });

    it('leases without the check log on request, and reads it back exactly, oldest first', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 2);
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
        const leases = await store.schedule.lease({
          limit: 2,
          leaseMs: 1_000,
          force: true,
          observations: false,
        });
        equal(leases.length, 2);
        for (const lease of leases) {
          truthy(!('observations' in lease), 'observations: false still read the check log');
        }
        const [first, second] = leases as [LeasedRecord, LeasedRecord];
        equal(
          await store.schedule.release('order-000', first.token, {
            nextCheckAt: t.clock.now(),
            observation,
          }),
          true,
        );
        equal(
          await store.schedule.release('order-001', second.token, { nextCheckAt: t.clock.now() }),
          true,
        );
        t.clock.advance(1);
      }
      const read = await store.schedule.observations('order-000');
      equal(read, observations);
      equal(JSON.stringify(read), JSON.stringify(observations), 'the log as given, key order kept');
      equal(await store.schedule.observations('order-001'), []);
      // Read with the lease, the log is the same.
      const [lease] = await store.schedule.lease({ limit: 1, leaseMs: 1_000, force: true });
      truthy(lease, 'a forced lease found nothing');
      equal(lease.observations, observations);
      await store.schedule.release('order-000', lease.token, {
        nextCheckAt: t.clock.now(),
        observation: { last: true },
      });
      equal((await store.schedule.observations('order-000')).at(-1), { last: true });
      messageMatches(await rejection(store.schedule.observations('order-999')), /order-999/);
      isError(
        await rejection(store.schedule.observations('')),
        isStoreInputError,
        'StoreInputError',
      );
      messageMatches(
        await rejection(
          store.schedule.lease({
            limit: 1,
            leaseMs: 1_000,
            observations: 'no' as unknown as boolean,
          }),
        ),
        /observations must be true or false/,
      );
    });
  },
);
