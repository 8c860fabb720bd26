import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import { isLeaseLostError } from '../../references/schedule/lease-lost-error.js';
import type { RecordChange } from '../../references/types.js';
import { equal, isError, matches, rejection } from '../assertions.js';
import { rule } from '../case.js';
import { intent, payout, recordIn } from '../fixtures.js';

const paid: RecordChange = {
  status: 'success',
  statusReason: 'confirmed by pull',
  attempted: false,
  final: true,
  effect: 'due',
};

/**
 * `store.move()` itself: what the store must enforce when pesakit's ledger has decided a move.
 * A move commits only while the record is in the status the ledger read and the fence holds,
 * and then all of it — references, status, effect, the end of a float hold — or nothing.
 */
export const moveCases = rule('move: a compare-and-set commit of what the ledger decided', (it) => {
  it('writes nothing when the record is no longer in the expected status', async (t) => {
    const store = await t.open();
    const before = await recordIn(store, 'order-1', 'unknown');
    const result = await store.records.move('order-1', {
      expected: 'pending',
      references: { controlNumber: 'CN-LATE' },
      change: paid,
    });
    equal(result.applied, false, 'a move from a status the record has left is not applied');
    equal(result.record, before, 'the record as it is now comes back');
    equal(
      await store.records.get('order-1'),
      before,
      'neither the references nor the change were written',
    );
  });

  it('commits references, status and the effect made due together', { clock: true }, async (t) => {
    const store = await t.open();
    await recordIn(store, 'order-1', 'pending');
    t.clock.advance(1000);
    const result = await store.records.move('order-1', {
      expected: 'pending',
      references: { paymentReference: 'ENG-1' },
      change: { ...paid, lastPayload: { status: 'success' } },
    });
    equal(result.applied, true);
    matches(result.record, {
      status: 'success',
      statusReason: 'confirmed by pull',
      paymentReference: 'ENG-1',
      lastPayload: { status: 'success' },
      updatedAt: t.clock.at(1000),
      finalAt: t.clock.at(1000),
      effect: { status: 'due', dueAt: t.clock.at(1000) },
    });
    equal(await store.records.get('order-1'), result.record);
  });

  it("takes the change's own instant when it carries one, the commit's time otherwise", {
    clock: true,
  }, async (t) => {
    const store = await t.open();
    await store.records.create(intent('order-1'));
    t.clock.advance(5000);
    const at = t.clock.at(2000);
    const result = await store.records.move('order-1', {
      expected: 'initiating',
      change: { ...paid, at, attempted: true },
    });
    matches(result.record, { attemptedAt: at, finalAt: at, updatedAt: t.clock.at(5000) });
  });

  it('checks the fence before anything: a lost lease throws, even for a stale status', async (t) => {
    const store = await t.open();
    await recordIn(store, 'order-1', 'unknown');
    const [lease] = await store.schedule.lease({ limit: 1, leaseMs: 60_000, force: true });
    const before = await store.records.get('order-1');
    const error = await rejection(
      store.records.move('order-1', {
        expected: 'unknown',
        change: paid,
        leaseToken: `${lease?.token}x`,
      }),
    );
    isError(error, isLeaseLostError, 'LeaseLostError');
    equal(
      await store.records.get('order-1'),
      before,
      'nothing written for a worker without the lease',
    );
  });

  it('a reference another record owns refuses the whole move, status included', async (t) => {
    const store = await t.open();
    await store.records.create(intent('order-1'));
    await store.attachReferences('order-1', { controlNumber: 'CN-1' });
    const before = await recordIn(store, 'order-2', 'pending');
    const error = await rejection(
      store.records.move('order-2', {
        expected: 'pending',
        references: { controlNumber: 'CN-1' },
        change: paid,
      }),
    );
    isError(error, isReferenceConflictError, 'ReferenceConflictError');
    equal(await store.records.get('order-2'), before, 'no status moved without its references');
  });

  it("ends a payout's float hold in the commit that makes it final", async (t) => {
    const store = await t.open();
    await store.wallets.recordBalance('payouts@duka.co.tz', async () => 10_000);
    await store.records.create(payout('payout-1', 4000, 4000));
    await store.records.move('payout-1', {
      expected: 'initiating',
      change: { ...paid, status: 'failed', attempted: true },
    });
    const float = await store.wallets.recordBalance('payouts@duka.co.tz', async () => 10_000);
    equal(float.reserved, 0, 'a failed payout gives its float back');
  });
});
