import { isStoreInputError } from '../../errors/store-input-error.js';
import type { InboxEntry } from '../../references/inbox/types.js';
import { equal, isError, messageMatches, rejection, truthy } from '../assertions.js';
import { type CaseContext, rule } from '../case.js';
import { callback } from '../fixtures.js';

const minute = 60_000;
const day = 24 * 60 * minute;

/** Appends, claims and finishes one entry per reference, now. */
async function finish(
  t: CaseContext,
  references: string[],
  how: 'done' | 'dead' = 'done',
): Promise<InboxEntry[]> {
  const { inbox } = await t.open();
  await Promise.all(references.map((reference) => inbox.append(callback(reference))));
  const finished: InboxEntry[] = [];
  while (finished.length < references.length) {
    const claims = await inbox.claim({ leaseMs: minute, limit: 1000 });
    truthy(claims.length > 0, 'the entries just appended were not due');
    await Promise.all(
      claims.map(({ entry, token }) =>
        how === 'done'
          ? inbox.finish(entry.id, token, { status: 'done', outcome: 'paid' })
          : inbox.finish(entry.id, token, { status: 'dead', error: 'gave up' }),
      ),
    );
    finished.push(...claims.map((claim) => claim.entry));
  }
  return finished;
}

async function references(t: CaseContext): Promise<string[]> {
  const { inbox } = await t.open();
  return (await inbox.list({ limit: 10_000 })).map((entry) => entry.claim.paymentReference).sort();
}

/** `inbox.prune()`: what is deleted, what never is, the limit, bad input, prunes racing. */
export const inboxPruneCases = rule(
  'inbox.prune deletes finished callbacks only, oldest first',
  (it) => {
    it('deletes done and dead entries finished before olderThan, and nothing else', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      await finish(t, ['OLD-DONE']);
      await finish(t, ['OLD-DEAD'], 'dead');
      t.clock.advance(day);
      const cutoff = t.clock.now();
      await finish(t, ['NEW-DONE']);
      await finish(t, ['NEW-DEAD'], 'dead');
      t.clock.advance(day);
      equal(await inbox.prune({ olderThan: cutoff }), { deleted: 2 });
      equal(await references(t), ['NEW-DEAD', 'NEW-DONE']);
      // Finished exactly at the cut-off is not before it.
      equal(await inbox.prune({ olderThan: cutoff }), { deleted: 0 });
      equal(await inbox.prune({ olderThan: t.clock.now() }), { deleted: 2 });
      equal(await references(t), []);
    });

    it('never deletes a pending or processing entry, however old', { clock: true }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('RETRIED'));
      const [retried] = await inbox.claim({ leaseMs: minute, limit: 1 });
      truthy(retried, 'inbox.claim claimed nothing due');
      await inbox.finish(retried.entry.id, retried.token, {
        status: 'pending',
        dueAt: t.clock.at(300 * day),
      });
      await inbox.append(callback('HELD'));
      const [held] = await inbox.claim({ leaseMs: minute, limit: 1 });
      equal(held?.entry.claim.paymentReference, 'HELD');
      await inbox.append(callback('WAITING'));
      t.clock.advance(400 * day);
      // A lease long expired is still `processing` until another worker takes the entry over.
      equal(await inbox.prune({ olderThan: t.clock.now() }), { deleted: 0 });
      equal(await references(t), ['HELD', 'RETRIED', 'WAITING']);
    });

    it('counts from when the entry finished, not from when the callback arrived', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      // A success claim the platform confirmed only days later: re-checked, then done.
      await inbox.append(callback('SLOW'));
      const [first] = await inbox.claim({ leaseMs: minute });
      truthy(first, 'inbox.claim claimed nothing due');
      await inbox.finish(first.entry.id, first.token, {
        status: 'pending',
        dueAt: t.clock.at(3 * day),
      });
      t.clock.advance(3 * day);
      const [second] = await inbox.claim({ leaseMs: minute });
      truthy(second, 'the rescheduled entry was not due again');
      await inbox.finish(second.entry.id, second.token, { status: 'done', outcome: 'paid' });
      t.clock.advance(day);
      // Received four days ago, finished one day ago: kept by a two-day retention.
      equal(await inbox.prune({ olderThan: t.clock.at(2 * day) }), { deleted: 0 });
      equal(await references(t), ['SLOW']);
      equal(await inbox.prune({ olderThan: t.clock.now() }), { deleted: 1 });
    });

    it('deletes at most `limit`, oldest finished first, across batches of 500', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      const many = Array.from(
        { length: 1_050 },
        (_, index) => `B${String(index).padStart(4, '0')}`,
      );
      await finish(t, many.slice(0, 1_020));
      t.clock.advance(minute);
      await finish(t, many.slice(1_020));
      t.clock.advance(minute);
      // 1,030 spans three statements (500, 500, 30): all of the first 1,020 go first.
      equal(await inbox.prune({ olderThan: t.clock.now(), limit: 1_030 }), { deleted: 1_030 });
      const left = await references(t);
      equal(left.length, 20);
      truthy(
        left.every((reference) => many.slice(1_020).includes(reference)),
        `a later entry was pruned before an earlier one: left ${left}`,
      );
      equal(await inbox.prune({ olderThan: t.clock.now() }), { deleted: 20 });
      equal(await inbox.prune({ olderThan: t.clock.now() }), { deleted: 0 });
    });

    it('bad input is a StoreInputError naming the field and rule, and deletes nothing', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      await finish(t, ['KEEP1', 'KEEP2']);
      t.clock.advance(day);
      const now = t.clock.now();
      const bad: [unknown, RegExp][] = [
        [null, /options/],
        [undefined, /options/],
        [{}, /olderThan.*valid Date/],
        [{ olderThan: '2026-01-01' }, /olderThan.*valid Date/],
        [{ olderThan: Date.now() }, /olderThan.*valid Date/],
        [{ olderThan: new Date(Number.NaN) }, /olderThan.*valid Date/],
        [{ olderThan: new Date(now.getTime() + 1) }, /olderThan.*not be later than now/],
        [{ olderThan: now, limit: 0 }, /limit.*1 to 1000000/],
        [{ olderThan: now, limit: 1.5 }, /limit/],
        [{ olderThan: now, limit: -1 }, /limit/],
        [{ olderThan: now, limit: '10' }, /limit/],
        [{ olderThan: now, limit: null }, /limit/],
        [{ olderThan: now, limit: 1_000_001 }, /limit/],
      ];
      for (const [options, message] of bad) {
        const error = await rejection(
          inbox.prune(options as never),
          `prune(${JSON.stringify(options)})`,
        );
        isError(error, isStoreInputError, 'StoreInputError');
        messageMatches(error, message);
        messageMatches(error, /Nothing was changed/);
      }
      equal(await references(t), ['KEEP1', 'KEEP2']);
    });

    it('a pruned callback delivered again is a new entry, due for processing again', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      const [old] = await finish(t, ['AGAIN']);
      t.clock.advance(day);
      equal(await inbox.prune({ olderThan: t.clock.now() }), { deleted: 1 });
      const again = await inbox.append(callback('AGAIN'));
      equal(again.duplicate, false);
      truthy(again.entry.id !== old?.id, 'the new entry has the pruned entry id');
      equal(again.entry.status, 'pending');
      equal(await inbox.backlog(), { due: 1, processing: 0, scheduled: 0 });
    });

    it('prunes racing each other delete every entry once', { clock: true }, async (t) => {
      const [one, two] = [await t.open(), await t.another()];
      await finish(
        t,
        Array.from({ length: 40 }, (_, index) => `RACE${index}`),
      );
      t.clock.advance(day);
      const results = await Promise.all(
        [one, two, one, two].map((store) =>
          store.inbox.prune({ olderThan: t.clock.now(), limit: 40 }),
        ),
      );
      const deleted = results.reduce((sum, result) => sum + result.deleted, 0);
      // A store may skip rows another prune holds; whatever one missed, a later run deletes.
      const rest = await one.inbox.prune({ olderThan: t.clock.now() });
      equal(deleted + rest.deleted, 40, 'entries deleted in all');
      equal(await references(t), []);
    });
  },
);
