import { isStoreInputError, type StoreInputError } from '../../errors/store-input-error.js';
import { equal, isError, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';

const account = 'sandbox:shop@example.co.tz';
/** 20 a second, two at a time: the reconciler's defaults (a tenth of a second's requests). */
const twenty = { ratePerSecond: 20, burst: 2, want: 2 } as const;

function refused(error: unknown, field: string): void {
  isError(error, isStoreInputError, 'StoreInputError');
  const errors = (error as StoreInputError).errors;
  truthy(errors[field] !== undefined, `the error names ${field} (it names ${Object.keys(errors)})`);
}

/**
 * The platform's rate limit of a merchant account, one token bucket in the store that every
 * process of the account takes from: refilled at the rate asked, never above its burst, paused
 * for everyone by one process's 429, and never handing out the same token twice.
 */
export const rateLimitCases = rule(
  'the rate limit: one token bucket per merchant account, shared by every process',
  (it) => {
    it('a new bucket is full; an empty one refills at the rate by the store clock', {
      clock: true,
    }, async (t) => {
      const { rateLimit } = await t.open();
      equal(await rateLimit.take(account, twenty), { granted: 2, waitMs: 0, pausedUntil: null });
      // All or none: the wait is for all that is wanted.
      equal(await rateLimit.take(account, twenty), { granted: 0, waitMs: 100, pausedUntil: null });
      t.clock.advance(50);
      equal(await rateLimit.take(account, twenty), { granted: 0, waitMs: 50, pausedUntil: null });
      equal(await rateLimit.take(account, { ...twenty, want: 1 }), {
        granted: 1,
        waitMs: 0,
        pausedUntil: null,
      });
      equal((await rateLimit.take(account, { ...twenty, want: 1 })).waitMs, 50);
      t.clock.advance(100);
      equal((await rateLimit.take(account, twenty)).granted, 2);
    });

    it('holds at most its burst however long it was left alone', { clock: true }, async (t) => {
      const { rateLimit } = await t.open();
      await rateLimit.take(account, twenty);
      t.clock.advance(3_600_000);
      equal((await rateLimit.take(account, twenty)).granted, 2);
      equal(await rateLimit.take(account, { ...twenty, want: 1 }), {
        granted: 0,
        waitMs: 50,
        pausedUntil: null,
      });
    });

    it("takers at different rates share the bucket's time: neither waits for ever", {
      clock: true,
    }, async (t) => {
      const { rateLimit } = await t.open();
      // A reconciler at 1000/s and a receiver at 20/s of one account, a tenth of a second each.
      const fast = { ratePerSecond: 1_000, burst: 100, want: 100 };
      equal((await rateLimit.take(account, fast)).granted, 100);
      equal(await rateLimit.take(account, twenty), { granted: 0, waitMs: 100, pausedUntil: null });
      t.clock.advance(100);
      equal((await rateLimit.take(account, twenty)).granted, 2);
      equal(await rateLimit.take(account, fast), { granted: 0, waitMs: 100, pausedUntil: null });
      t.clock.advance(100);
      equal((await rateLimit.take(account, fast)).granted, 100);
    });

    it('a rate that does not divide a second grants a whole burst, and is never exceeded', {
      clock: true,
    }, async (t) => {
      const { rateLimit } = await t.open();
      // 3 a second, one at a time: a token costs 334 ms (333.3 rounded up).
      const three = { ratePerSecond: 3, burst: 1, want: 1 };
      equal(await rateLimit.take(account, three), { granted: 1, waitMs: 0, pausedUntil: null });
      equal(await rateLimit.take(account, three), { granted: 0, waitMs: 334, pausedUntil: null });
      t.clock.advance(333);
      equal((await rateLimit.take(account, three)).waitMs, 1);
      t.clock.advance(1);
      equal((await rateLimit.take(account, three)).granted, 1);
    });

    it("another account's bucket is its own", { clock: true }, async (t) => {
      const { rateLimit } = await t.open();
      await rateLimit.take(account, twenty);
      equal((await rateLimit.take(account, twenty)).granted, 0);
      equal((await rateLimit.take('sandbox:other@example.co.tz', twenty)).granted, 2);
      equal((await rateLimit.take('production:shop@example.co.tz', twenty)).granted, 2);
    });

    it('a pause stops every take of the account until it ends; a shorter one does not cut it', {
      clock: true,
    }, async (t) => {
      const { rateLimit } = await t.open();
      equal(await rateLimit.pause(account, 1_000), { pausedUntil: t.clock.at(1_000) });
      equal(await rateLimit.pause(account, 200), { pausedUntil: t.clock.at(1_000) });
      equal(await rateLimit.take(account, twenty), {
        granted: 0,
        waitMs: 1_000,
        pausedUntil: t.clock.at(1_000),
      });
      equal((await rateLimit.take('sandbox:other@example.co.tz', twenty)).granted, 2);
      t.clock.advance(999);
      equal((await rateLimit.take(account, twenty)).waitMs, 1);
      t.clock.advance(1);
      equal(await rateLimit.take(account, twenty), { granted: 2, waitMs: 0, pausedUntil: null });
      equal(await rateLimit.pause(account, 5_000), { pausedUntil: t.clock.at(6_000) });
    });

    it('one bucket for every handle: what one takes or pauses, the other sees', {
      clock: true,
    }, async (t) => {
      const [one, two] = [await t.open(), await t.another()];
      equal((await one.rateLimit.take(account, twenty)).granted, 2);
      equal(await two.rateLimit.take(account, twenty), {
        granted: 0,
        waitMs: 100,
        pausedUntil: null,
      });
      t.clock.advance(100);
      await two.rateLimit.pause(account, 2_000);
      equal(await one.rateLimit.take(account, twenty), {
        granted: 0,
        waitMs: 2_000,
        pausedUntil: t.clock.at(2_100),
      });
    });

    it('takes racing on two handles never share a token, the first take of a bucket included', {
      clock: true,
    }, async (t) => {
      const [one, two] = [await t.open(), await t.another()];
      const take = { ratePerSecond: 10, burst: 4, want: 1 };
      const grants = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 === 0 ? one : two).rateLimit.take(account, take),
        ),
      );
      const granted = grants.reduce((sum, grant) => sum + grant.granted, 0);
      equal(granted, 4, `tokens granted from a bucket of 4 (grants: ${JSON.stringify(grants)})`);
    });

    it('bad input is a StoreInputError naming the field, and takes nothing', async (t) => {
      const { rateLimit } = await t.open();
      refused(await rejection(rateLimit.take('', twenty)), 'key');
      refused(await rejection(rateLimit.take(`${account}\n`, twenty)), 'key');
      refused(await rejection(rateLimit.take(account, { ...twenty, want: 3 })), 'want');
      refused(await rejection(rateLimit.take(account, { ...twenty, want: 0 })), 'want');
      refused(
        await rejection(rateLimit.take(account, { ...twenty, ratePerSecond: 0 })),
        'ratePerSecond',
      );
      refused(await rejection(rateLimit.take(account, { ...twenty, burst: 1.5 })), 'burst');
      refused(await rejection(rateLimit.take(account, null as never)), 'take');
      refused(await rejection(rateLimit.pause(account, 0)), 'ms');
      refused(await rejection(rateLimit.pause(account, 86_400_001)), 'ms');
      refused(await rejection(rateLimit.pause('', 1_000)), 'key');
      // Nothing was taken or paused: the bucket is still new, and full.
      equal((await rateLimit.take(account, twenty)).granted, 2);
    });
  },
);
