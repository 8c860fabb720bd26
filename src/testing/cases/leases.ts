import { isStoreInputError } from '../../errors/store-input-error.js';
import { isLeaseLostError } from '../../references/schedule/lease-lost-error.js';
import { equal, isError, matches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { openRecords } from '../fixtures.js';

const merchantReferences = (leased: { record: { merchantReference: string } }[]) =>
  leased.map((lease) => lease.record.merchantReference);

/** The reconciler's schedule: a record is leased to one worker, and only its holder may settle it. */
export const leaseCases = rule(
  'leases: a due record goes to one worker, and only the holder writes',
  (it) => {
    it('leases only what is due, in pages, and never the same record twice in a pass', async (t) => {
      const store = await t.open();
      await openRecords(store, 5);
      const pages = [];
      for (let page = 0; page < 3; page += 1) {
        pages.push(...(await store.leaseDue({ limit: 2, leaseMs: 60_000 })));
      }
      equal(merchantReferences(pages), [
        'order-000',
        'order-001',
        'order-002',
        'order-003',
        'order-004',
      ]);
      equal(await store.leaseDue({ limit: 2, leaseMs: 60_000 }), []);
      equal(new Set(pages.map((lease) => lease.token)).size, 5, 'each lease has its own token');
    });

    it('a released record is not due until its next check time; its check is counted', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 2);
      for (const { record, token } of await store.leaseDue({ limit: 10, leaseMs: 60_000 })) {
        equal(
          await store.releaseLease(record.merchantReference, token, {
            nextCheckAt: t.clock.at(5_000),
          }),
          true,
          'the holder releases its lease',
        );
      }
      matches(await store.get('order-000'), { checkCount: 1, lastCheckedAt: t.clock.at(0) });
      t.clock.advance(4_999);
      equal(await store.leaseDue({ limit: 10, leaseMs: 60_000 }), []);
      t.clock.advance(1);
      const again = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
      equal(merchantReferences(again), ['order-000', 'order-001']);
      equal(again[0]?.nextCheckAt, t.clock.at(5_000));
    });

    it('skips final records and records leased by another worker until the lease expires', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await openRecords(store, 2);
      await store.transition('order-001', 'success');
      const [lease] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      truthy(lease, 'leaseDue leased nothing due');
      equal(lease.record.merchantReference, 'order-000');
      t.clock.advance(29_999);
      equal(
        await store.leaseDue({ limit: 10, leaseMs: 30_000 }),
        [],
        'a held lease was leased again',
      );
      t.clock.advance(1);
      const [taken] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      truthy(taken, 'an expired lease was not leased again');
      equal(taken.record.merchantReference, 'order-000');
      truthy(taken.token !== lease.token, 'the second lease reused the first token');
      // The first worker's lease is gone: its release and its final write are refused.
      equal(
        await store.releaseLease('order-000', lease.token, { nextCheckAt: t.clock.now() }),
        false,
        'the old holder released the lease',
      );
      const error = await rejection(
        store.transition('order-000', 'success', { leaseToken: lease.token }),
      );
      isError(error, isLeaseLostError, 'LeaseLostError');
      equal((await store.get('order-000'))?.status, 'pending');
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
      const [lease] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      truthy(lease, 'leaseDue leased nothing due');
      t.clock.advance(30_000);
      const [taken] = await store.leaseDue({ limit: 10, leaseMs: 30_000 });
      truthy(taken, 'an expired lease was not leased again');
      const claim = { paymentReference: 'PAY-CLAIMED' };
      const error = await rejection(
        store.attachAndTransition('order-000', claim, 'success', { leaseToken: lease.token }),
      );
      isError(error, isLeaseLostError, 'LeaseLostError');
      matches(await store.get('order-000'), { status: 'pending', paymentReference: null });
      await store.attachAndTransition('order-000', claim, 'success', { leaseToken: taken.token });
      matches(await store.get('order-000'), { status: 'success', paymentReference: 'PAY-CLAIMED' });
    });

    it('keeps the last observations as evidence, oldest first', { clock: true }, async (t) => {
      const store = await t.open();
      await openRecords(store, 1);
      for (let check = 0; check < 22; check += 1) {
        const [lease] = await store.leaseDue({ limit: 1, leaseMs: 1_000, force: true });
        truthy(lease, `check ${check}: a forced lease found nothing`);
        equal(
          lease.observations?.length,
          Math.min(check, 20),
          `observations before check ${check}`,
        );
        await store.releaseLease('order-000', lease.token, {
          nextCheckAt: t.clock.now(),
          observation: { check },
        });
        t.clock.advance(1);
      }
      const kept = await store.readObservations('order-000');
      equal(kept.length, 20);
      equal(kept[0], { check: 2 });
      equal(kept.at(-1), { check: 21 });
      equal((await store.get('order-000'))?.checkCount, 22);
    });

    it('refuses bad lease options naming the field, and changes nothing', async (t) => {
      const store = await t.open();
      await openRecords(store, 1);
      for (const options of [
        { limit: 0, leaseMs: 1000 },
        { limit: 1, leaseMs: 0 },
        { limit: 1, leaseMs: 1000, statuses: ['settled' as never] },
      ]) {
        isError(await rejection(store.leaseDue(options)), isStoreInputError, 'StoreInputError');
      }
      equal(merchantReferences(await store.leaseDue({ limit: 1, leaseMs: 1000 })), ['order-000']);
    });
  },
);
