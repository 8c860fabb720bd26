import { isDuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import { isLeaseLostError } from '../../references/schedule/lease-lost-error.js';
import { equal, isError, rejection, show, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { callback, intent, openRecords, paid } from '../fixtures.js';

/**
 * Two handles on one database race as two processes of the merchant's do: every rule that makes
 * money move once (one winner of a final move, one owner of a reference, one holder of a lease)
 * must hold between them, not only inside one handle.
 */
export const twoHandleCases = rule('two processes on one database', (it) => {
  it('exactly one of many concurrent final transitions wins, across handles', async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    await one.records.create(intent('order-1'));
    await one.transition('order-1', 'pending');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? one : two).transition('order-1', index < 4 ? 'success' : 'failed'),
      ).map((move) =>
        move.then(
          (result) => result,
          (error: unknown) => error,
        ),
      ),
    );
    const winners = results.filter((result) => (result as { changed?: boolean }).changed === true);
    equal(winners.length, 1, `callers told changed: true (results: ${show(results)})`);
    const final = await two.records.get('order-1');
    equal(final?.status, (winners[0] as { record: { status: string } }).record.status);
  });

  it('one intent per merchant reference, whichever handle writes first', async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    const results = await Promise.allSettled([
      one.records.create(intent('order-1')),
      two.records.create(intent('order-1', { amount: 7000 })),
    ]);
    const written = results.filter((result) => result.status === 'fulfilled');
    equal(written.length, 1, `intents written (results: ${show(results)})`);
    const refused = results.find((result) => result.status === 'rejected');
    isError(refused?.reason, isDuplicateReferenceError, 'DuplicateReferenceError');
    equal(await two.records.get('order-1'), (written[0] as PromiseFulfilledResult<unknown>).value);
  });

  it('a reference value claimed by two records at once gets one owner', async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    await one.records.create(intent('order-1'));
    await one.records.create(intent('order-2'));
    const results = await Promise.allSettled([
      one.attachReferences('order-1', { paymentReference: 'ENG-SHARED' }),
      two.attachReferences('order-2', { controlNumber: 'ENG-SHARED' }),
    ]);
    equal(
      results.filter((result) => result.status === 'fulfilled').length,
      1,
      `attaches that went through (results: ${show(results)})`,
    );
    const refused = results.find((result) => result.status === 'rejected');
    isError(refused?.reason, isReferenceConflictError, 'ReferenceConflictError');
    const owners = [await one.records.get('order-1'), await one.records.get('order-2')].filter(
      (record) =>
        record?.paymentReference === 'ENG-SHARED' || record?.controlNumber === 'ENG-SHARED',
    );
    equal(owners.length, 1, 'records holding the value');
  });

  it('workers leasing at once never receive the same record', async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    await openRecords(one, 12);
    const leased = (
      await Promise.all(
        [one, two, one, two, one, two].map((store) =>
          store.schedule.lease({ limit: 3, leaseMs: 60_000 }),
        ),
      )
    ).flat();
    const references = leased.map((lease) => lease.record.merchantReference);
    equal(new Set(references).size, references.length, `a record leased twice: ${references}`);
    truthy(references.length > 0, 'no worker leased anything');
  });

  it("a lease taken over by another process fences the first holder's writes", {
    clock: true,
  }, async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    await openRecords(one, 1);
    const [lease] = await one.schedule.lease({ limit: 1, leaseMs: 10_000 });
    truthy(lease, 'schedule.lease leased nothing due');
    t.clock.advance(10_000);
    const [taken] = await two.schedule.lease({ limit: 1, leaseMs: 10_000 });
    truthy(taken, 'the expired lease was not leased by the other process');
    isError(
      await rejection(one.transition('order-000', 'failed', { leaseToken: lease.token })),
      isLeaseLostError,
      'LeaseLostError',
    );
    equal(
      (await two.transition('order-000', 'success', { leaseToken: taken.token })).changed,
      true,
    );
    equal((await one.records.get('order-000'))?.status, 'success');
  });

  it('effects claimed at once by two processes are never shared', async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    for (let index = 0; index < 6; index += 1) await paid(one, `order-${index}`);
    const claims = (
      await Promise.all(
        [one, two, one, two].map((store) => store.effects.claim({ leaseMs: 60_000, limit: 2 })),
      )
    ).flat();
    const references = claims.map((claim) => claim.record.merchantReference);
    equal(new Set(references).size, references.length, `an effect claimed twice: ${references}`);
    equal(references.length, 6, 'due effects claimed by four claims of two');
  });

  it('one callback delivered to two processes at once is one inbox entry', async (t) => {
    const [one, two] = [await t.open(), await t.another()];
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) => (index % 2 ? one : two).inbox.append(callback('R1'))),
    );
    equal(results.filter((result) => !result.duplicate).length, 1, 'entries appended');
    equal(new Set(results.map((result) => result.entry.id)).size, 1, 'entry ids handed out');
    const claims = (
      await Promise.all([
        one.inbox.claim({ leaseMs: 60_000 }),
        two.inbox.claim({ leaseMs: 60_000 }),
      ])
    ).flat();
    equal(claims.length, 1, 'claims of the one entry');
  });
});
