import { isStoreInputError } from '../../errors/store-input-error.js';
import { isLeaseLostError } from '../../references/schedule/lease-lost-error.js';
import { equal, isError, matches, messageMatches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { intent, merchantReferences, openRecords } from '../fixtures.js';

/** The reconciler's schedule: a record is leased to one worker, and only its holder may settle it. */
export const leaseCases = rule(
  'leases: a due record goes to one worker, and only the holder writes',
  (it) => {
    it('leases only what is due, in pages, and never the same record twice in a pass', async (t) => {
      const store = await t.open();
      await openRecords(store, 5);
      const pages = [];
      for (let page = 0; page < 3; page += 1) {
        pages.push(...(await store.schedule.lease({ limit: 2, leaseMs: 60_000 })));
      }
      equal(merchantReferences(pages), [
        'order-000',
        'order-001',
        'order-002',
        'order-003',
        'order-004',
      ]);
      equal(await store.schedule.lease({ limit: 2, leaseMs: 60_000 }), []);
      equal(new Set(pages.map((lease) => lease.token)).size, 5, 'each lease has its own token');
    });

    it('leases in due order, page by page: never scheduled first, then the earliest due', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 4);
      const due = { 'order-000': 3_000, 'order-001': 1_000, 'order-002': 1_000 };
      for (const { record, token } of await store.schedule.lease({ limit: 3, leaseMs: 60_000 })) {
        const at = due[record.merchantReference as keyof typeof due];
        await store.schedule.release(record.merchantReference, token, {
          nextCheckAt: t.clock.at(at),
        });
      }
      await store.records.create(intent('order-004'));
      await store.transition('order-004', 'unknown');
      t.clock.advance(5_000);
      const pages = [];
      for (let page = 0; page < 3; page += 1) {
        pages.push(merchantReferences(await store.schedule.lease({ limit: 2, leaseMs: 60_000 })));
      }
      // Never scheduled (by reference), then by due time, a tie by reference.
      equal(pages, [['order-003', 'order-004'], ['order-001', 'order-002'], ['order-000']]);
    });

    it('a released record is not due until its next check time; its check is counted', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 2);
      for (const { record, token } of await store.schedule.lease({ limit: 10, leaseMs: 60_000 })) {
        equal(
          await store.schedule.release(record.merchantReference, token, {
            nextCheckAt: t.clock.at(5_000),
          }),
          true,
          'the holder releases its lease',
        );
      }
      matches(await store.records.get('order-000'), {
        checkCount: 1,
        lastCheckedAt: t.clock.at(0),
      });
      t.clock.advance(4_999);
      equal(await store.schedule.lease({ limit: 10, leaseMs: 60_000 }), []);
      t.clock.advance(1);
      const again = await store.schedule.lease({ limit: 10, leaseMs: 60_000 });
      equal(merchantReferences(again), ['order-000', 'order-001']);
      equal(again[0]?.nextCheckAt, t.clock.at(5_000));
    });

    it('skips final records and records leased by another worker until the lease expires', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 2);
      await store.transition('order-001', 'success');
      const [lease] = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
      truthy(lease, 'schedule.lease leased nothing due');
      equal(lease.record.merchantReference, 'order-000');
      t.clock.advance(29_999);
      equal(
        await store.schedule.lease({ limit: 10, leaseMs: 30_000 }),
        [],
        'a held lease was leased again',
      );
      t.clock.advance(1);
      const [taken] = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
      truthy(taken, 'an expired lease was not leased again');
      equal(taken.record.merchantReference, 'order-000');
      truthy(taken.token !== lease.token, 'the second lease reused the first token');
      // The first worker's lease is gone: its release and its final write are refused.
      equal(
        await store.schedule.release('order-000', lease.token, { nextCheckAt: t.clock.now() }),
        false,
        'the old holder released the lease',
      );
      const error = await rejection(
        store.transition('order-000', 'success', { leaseToken: lease.token }),
      );
      isError(error, isLeaseLostError, 'LeaseLostError');
      equal((await store.records.get('order-000'))?.status, 'pending');
      const { changed } = await store.transition('order-000', 'success', {
        leaseToken: taken.token,
      });
      equal(changed, true, "the holder's write went through");
    });

    it('references claimed through a lost lease are refused, and nothing is attached', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 1);
      const [lease] = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
      truthy(lease, 'schedule.lease leased nothing due');
      t.clock.advance(30_000);
      const [taken] = await store.schedule.lease({ limit: 10, leaseMs: 30_000 });
      truthy(taken, 'an expired lease was not leased again');
      const claim = { paymentReference: 'PAY-CLAIMED' };
      const error = await rejection(
        store.attachAndTransition('order-000', claim, 'success', { leaseToken: lease.token }),
      );
      isError(error, isLeaseLostError, 'LeaseLostError');
      matches(await store.records.get('order-000'), { status: 'pending', paymentReference: null });
      await store.attachAndTransition('order-000', claim, 'success', { leaseToken: taken.token });
      matches(await store.records.get('order-000'), {
        status: 'success',
        paymentReference: 'PAY-CLAIMED',
      });
    });

    it('force leases records not yet due, still once per pass', { clock: true }, async (t) => {
      const store = await t.open();
      await openRecords(store, 3);
      for (const { record, token } of await store.schedule.lease({ limit: 10, leaseMs: 60_000 })) {
        await store.schedule.release(record.merchantReference, token, {
          nextCheckAt: t.clock.at(3_600_000),
        });
      }
      t.clock.advance(1_000);
      const passStartedAt = t.clock.now();
      equal(await store.schedule.lease({ limit: 10, leaseMs: 60_000, passStartedAt }), []);
      const forced = await store.schedule.lease({
        limit: 2,
        leaseMs: 60_000,
        force: true,
        passStartedAt,
      });
      equal(forced.length, 2);
      for (const { record, token } of forced) {
        await store.schedule.release(record.merchantReference, token, {
          nextCheckAt: t.clock.at(3_600_000),
        });
      }
      const rest = await store.schedule.lease({
        limit: 2,
        leaseMs: 60_000,
        force: true,
        passStartedAt,
      });
      equal(merchantReferences(rest), ['order-002']);
    });

    it('leaves initiating records written since initiatingBefore alone, forced or not', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await store.records.create(intent('initiating-old'));
      t.clock.advance(10_000);
      await store.records.create(intent('initiating-young'));
      await openRecords(store, 1); // order-000, pending, as young as the young one
      const initiatingBefore = t.clock.at(5_000);
      const sorted = (leased: { record: { merchantReference: string } }[]) =>
        merchantReferences(leased).sort();
      const onlyInitiating = await store.schedule.lease({
        limit: 10,
        leaseMs: 1,
        statuses: ['initiating'],
        initiatingBefore,
      });
      equal(sorted(onlyInitiating), ['initiating-old']);
      t.clock.advance(1); // those leases expire
      const forced = await store.schedule.lease({
        limit: 10,
        leaseMs: 1,
        force: true,
        initiatingBefore,
      });
      equal(sorted(forced), ['initiating-old', 'order-000']);
      t.clock.advance(1);
      // Without the option every initiating record may be leased.
      equal(sorted(await store.schedule.lease({ limit: 10, leaseMs: 1, force: true })), [
        'initiating-old',
        'initiating-young',
        'order-000',
      ]);
      const bad = await rejection(
        store.schedule.lease({ limit: 1, leaseMs: 1, initiatingBefore: new Date(Number.NaN) }),
      );
      isError(bad, isStoreInputError, 'StoreInputError');
      messageMatches(bad, /initiatingBefore/);
    });

    it('refuses bad lease options naming the field, and changes nothing', async (t) => {
      const store = await t.open();
      await openRecords(store, 1);
      for (const [options, field] of [
        [{ limit: 0, leaseMs: 1000 }, /limit/],
        [{ limit: 1, leaseMs: 0 }, /leaseMs/],
        [{ limit: 1, leaseMs: 1000, statuses: ['settled' as never] }, /statuses/],
        // A record no longer open is never due.
        [{ limit: 1, leaseMs: 1000, statuses: ['success'] }, /statuses.* must be open statuses/],
      ] as const) {
        const error = await rejection(store.schedule.lease(options));
        isError(error, isStoreInputError, 'StoreInputError');
        messageMatches(error, field);
      }
      const badRelease = await rejection(
        store.schedule.release('order-000', 'x', { nextCheckAt: new Date(Number.NaN) }),
      );
      messageMatches(badRelease, /nextCheckAt/);
      equal(merchantReferences(await store.schedule.lease({ limit: 5, leaseMs: 1000 })), [
        'order-000',
      ]);
    });
  },
);
