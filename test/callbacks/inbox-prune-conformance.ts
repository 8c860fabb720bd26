import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../src/errors/store-input-error.js';
import type { CallbackInbox, InboxEntry } from '../../src/references/inbox/types.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { callback, type InboxSubject, TestClock } from './inbox-conformance.js';

const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * `inbox.prune()` on every CallbackInbox (memory, SQLite, PostgreSQL): what is deleted, what is
 * never deleted, the limit, bad input, and deletes racing each other.
 */
export function describeInboxPrune(name: string, subject: InboxSubject): void {
  describe(`CallbackInbox prune: ${name}`, () => {
    let clock: TestClock;
    let store: ReferenceStore;
    let inbox: CallbackInbox;
    const opened: ReferenceStore[] = [];

    beforeEach(async () => {
      clock = new TestClock();
      store = await subject.open({ now: clock.now });
      opened.push(store);
      inbox = store.inbox;
    });
    afterAll(async () => {
      for (const each of opened) await each.close();
      await subject.dispose?.();
    });

    /** Appends, claims and finishes one entry per reference, now. */
    async function finish(
      references: string[],
      how: 'done' | 'dead' = 'done',
    ): Promise<InboxEntry[]> {
      await Promise.all(references.map((reference) => inbox.append(callback(reference))));
      const finished: InboxEntry[] = [];
      while (finished.length < references.length) {
        const claims = await inbox.claim({ leaseMs: minute, limit: 1000 });
        if (claims.length === 0) throw new Error('expected the appended entries to be due');
        await Promise.all(
          claims.map(({ entry, token }) =>
            how === 'done'
              ? inbox.complete(entry.id, token, 'paid')
              : inbox.deadLetter(entry.id, token, 'gave up'),
          ),
        );
        finished.push(...claims.map((claim) => claim.entry));
      }
      return finished;
    }

    const references = async () =>
      (await inbox.list({ limit: 10_000 })).map((entry) => entry.claim.paymentReference).sort();

    it('deletes done and dead entries finished before olderThan, and nothing else', async () => {
      await finish(['OLD-DONE']);
      await finish(['OLD-DEAD'], 'dead');
      clock.advance(day);
      const cutoff = clock.now();
      await finish(['NEW-DONE']);
      await finish(['NEW-DEAD'], 'dead');
      clock.advance(day);
      expect(await inbox.prune({ olderThan: cutoff })).toEqual({ deleted: 2 });
      expect(await references()).toEqual(['NEW-DEAD', 'NEW-DONE']);
      // Finished exactly at the cut-off is not before it.
      expect(await inbox.prune({ olderThan: cutoff })).toEqual({ deleted: 0 });
      expect(await inbox.prune({ olderThan: clock.now() })).toEqual({ deleted: 2 });
      expect(await references()).toEqual([]);
    });

    it('never deletes a pending or processing entry, however old', async () => {
      await inbox.append(callback('RETRIED'));
      const [retried] = await inbox.claim({ leaseMs: minute, limit: 1 });
      if (!retried) throw new Error('expected a claim');
      await inbox.reschedule(retried.entry.id, retried.token, {
        dueAt: new Date(clock.now().getTime() + 300 * day),
      });
      await inbox.append(callback('HELD'));
      const [held] = await inbox.claim({ leaseMs: minute, limit: 1 });
      expect(held?.entry.claim.paymentReference).toBe('HELD');
      await inbox.append(callback('WAITING'));
      clock.advance(400 * day);
      // A lease long expired is still `processing` until another worker takes the entry over.
      expect(await inbox.prune({ olderThan: clock.now() })).toEqual({ deleted: 0 });
      expect(await references()).toEqual(['HELD', 'RETRIED', 'WAITING']);
    });

    it('counts from when the entry finished, not from when the callback arrived', async () => {
      // A success claim the platform confirmed only days later: re-checked, then done.
      await inbox.append(callback('SLOW'));
      const [first] = await inbox.claim({ leaseMs: minute });
      if (!first) throw new Error('expected a claim');
      await inbox.reschedule(first.entry.id, first.token, {
        dueAt: new Date(clock.now().getTime() + 3 * day),
      });
      clock.advance(3 * day);
      const [second] = await inbox.claim({ leaseMs: minute });
      if (!second) throw new Error('expected the re-check');
      await inbox.complete(second.entry.id, second.token, 'paid');
      clock.advance(day);
      // Received four days ago, finished one day ago: kept by a two-day retention.
      expect(await inbox.prune({ olderThan: new Date(clock.now().getTime() - 2 * day) })).toEqual({
        deleted: 0,
      });
      expect(await references()).toEqual(['SLOW']);
      expect(await inbox.prune({ olderThan: clock.now() })).toEqual({ deleted: 1 });
    });

    it('deletes at most `limit`, oldest finished first, across batches of 500', async () => {
      const many = Array.from(
        { length: 1_050 },
        (_, index) => `B${String(index).padStart(4, '0')}`,
      );
      await finish(many.slice(0, 1_020));
      clock.advance(minute);
      await finish(many.slice(1_020));
      clock.advance(minute);
      // 1,030 spans three statements (500, 500, 30): all of the first 1,020 go first.
      expect(await inbox.prune({ olderThan: clock.now(), limit: 1_030 })).toEqual({
        deleted: 1_030,
      });
      const left = await references();
      expect(left).toHaveLength(20);
      expect(left.every((reference) => many.slice(1_020).includes(reference))).toBe(true);
      expect(await inbox.prune({ olderThan: clock.now() })).toEqual({ deleted: 20 });
      expect(await inbox.prune({ olderThan: clock.now() })).toEqual({ deleted: 0 });
    });

    it('bad input is a StoreInputError naming the field and rule, and deletes nothing', async () => {
      await finish(['KEEP1', 'KEEP2']);
      clock.advance(day);
      const bad: [unknown, RegExp][] = [
        [null, /options/],
        [undefined, /options/],
        [{}, /olderThan.*valid Date/],
        [{ olderThan: '2026-01-01' }, /olderThan.*valid Date/],
        [{ olderThan: Date.now() }, /olderThan.*valid Date/],
        [{ olderThan: new Date(Number.NaN) }, /olderThan.*valid Date/],
        [{ olderThan: new Date(clock.now().getTime() + 1) }, /olderThan.*not be later than now/],
        [{ olderThan: clock.now(), limit: 0 }, /limit.*1 to 1000000/],
        [{ olderThan: clock.now(), limit: 1.5 }, /limit/],
        [{ olderThan: clock.now(), limit: -1 }, /limit/],
        [{ olderThan: clock.now(), limit: '10' }, /limit/],
        [{ olderThan: clock.now(), limit: null }, /limit/],
        [{ olderThan: clock.now(), limit: 1_000_001 }, /limit/],
      ];
      for (const [options, message] of bad) {
        const failure = await inbox.prune(options as never).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, JSON.stringify(options)).toBeInstanceOf(StoreInputError);
        expect((failure as Error).message).toMatch(message);
        expect((failure as Error).message).toMatch(/Nothing was changed/);
      }
      expect(await references()).toEqual(['KEEP1', 'KEEP2']);
    });

    it('a pruned callback delivered again is a new entry, due for processing again', async () => {
      const [old] = await finish(['AGAIN']);
      clock.advance(day);
      expect(await inbox.prune({ olderThan: clock.now() })).toEqual({ deleted: 1 });
      const again = await inbox.append(callback('AGAIN'));
      expect(again.duplicate).toBe(false);
      expect(again.entry.id).not.toBe(old?.id);
      expect(again.entry.status).toBe('pending');
      expect(await inbox.backlog()).toEqual({ due: 1, processing: 0, scheduled: 0 });
    });

    it('prunes racing each other delete every entry once', async () => {
      await finish(Array.from({ length: 40 }, (_, index) => `RACE${index}`));
      clock.advance(day);
      const results = await Promise.all(
        Array.from({ length: 4 }, () => inbox.prune({ olderThan: clock.now(), limit: 40 })),
      );
      const deleted = results.reduce((sum, result) => sum + result.deleted, 0);
      // PostgreSQL skips rows another prune holds; whatever one missed, a later run deletes.
      const rest = await inbox.prune({ olderThan: clock.now() });
      expect(deleted + rest.deleted).toBe(40);
      expect(await references()).toEqual([]);
    });
  });
}
