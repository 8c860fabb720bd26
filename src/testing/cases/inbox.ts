import { isStoreInputError } from '../../errors/store-input-error.js';
import { equal, isError, matches, messageMatches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { callback } from '../fixtures.js';

const inputError = (error: unknown) => isError(error, isStoreInputError, 'StoreInputError');

/** The durable callback inbox: written before the receiver answers 200, deduplicated, leased. */
export const inboxCases = rule(
  'the callback inbox keeps every callback, once, for one worker at a time',
  (it) => {
    it('appends the raw callback and keeps every field', { clock: true }, async (t) => {
      const { inbox } = await t.open();
      const input = callback('R1');
      const { entry, duplicate } = await inbox.append(input);
      equal(duplicate, false);
      matches(entry, {
        dedupKey: input.dedupKey,
        method: 'POST',
        url: input.url,
        headers: input.headers,
        body: input.body,
        claim: input.claim,
        status: 'pending',
        duplicates: 0,
        attempts: 0,
        outcome: null,
        lastError: null,
        processedAt: null,
        leaseUntil: null,
        receivedAt: t.clock.now(),
      });
      equal(await inbox.get(entry.id), entry);
    });

    it('an entry appended with an earlier dueAt is claimed first (a known record before orphans)', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('O1'));
      await inbox.append(callback('O2'));
      const early = t.clock.at(-3_600_000);
      const { entry } = await inbox.append(callback('K1', { dueAt: early }));
      matches(entry, { dueAt: early, receivedAt: t.clock.now() });
      const claims = await inbox.claim({ leaseMs: 60_000, limit: 2 });
      equal(
        claims.map((claim) => claim.entry.claim.paymentReference),
        ['K1', 'O1'],
      );
      messageMatches(
        await rejection(inbox.append(callback('K2', { dueAt: new Date(Number.NaN) }))),
        /dueAt/,
      );
    });

    it('the same dedup key again is counted, not appended', async (t) => {
      const { inbox } = await t.open();
      const first = await inbox.append(callback('R2'));
      const results = await Promise.all(
        Array.from({ length: 5 }, () => inbox.append(callback('R2'))),
      );
      for (const result of results) {
        equal(result.duplicate, true);
        equal(result.entry.id, first.entry.id);
      }
      equal((await inbox.get(first.entry.id))?.duplicates, 5);
      equal((await inbox.list()).length, 1);
    });

    it('concurrent first appends of one key store exactly one entry', async (t) => {
      const { inbox } = await t.open();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => inbox.append(callback('R3'))),
      );
      equal(
        results.filter((result) => !result.duplicate).length,
        1,
        'appends told duplicate: false',
      );
      equal((await inbox.list())[0]?.duplicates, 7);
    });

    it('bad input names the field and stores nothing', async (t) => {
      const { inbox } = await t.open();
      const empty = await rejection(inbox.append(callback('R4', { dedupKey: '' })));
      inputError(empty);
      messageMatches(empty, /dedupKey/);
      messageMatches(await rejection(inbox.claim({ leaseMs: 0 })), /leaseMs/);
      equal(await inbox.list(), []);
    });

    it('null where an object belongs (a JavaScript caller) is a StoreInputError, not a TypeError', async (t) => {
      const { inbox } = await t.open();
      for (const [call, field] of [
        [() => inbox.append(null as never), /entry/],
        [() => inbox.claim(null as never), /options/],
        [() => inbox.list(null as never), /options/],
      ] as const) {
        const error = await rejection(call());
        inputError(error);
        messageMatches(error, field);
      }
      equal(await inbox.list(), []);
    });

    it('a NUL or a wrong type in any field is a StoreInputError naming it (PostgreSQL text cannot hold a NUL)', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      const refused = async (call: Promise<unknown>, field: RegExp) => {
        const error = await rejection(call);
        inputError(error);
        messageMatches(error, field);
      };
      await refused(inbox.append(callback('N1', { url: '/callback?x=\u0000' })), /url/);
      await refused(inbox.append(callback('N1', { method: 'PO\u0000ST' })), /method/);
      await refused(inbox.append(callback('N1', { body: '{"a":"\u0000"}' })), /body/);
      await refused(inbox.append(callback('N1', { dedupKey: 'k\u0000' })), /dedupKey/);
      equal(await inbox.list(), []);

      await inbox.append(callback('N2'));
      const [claim] = await inbox.claim({ leaseMs: 60_000 });
      truthy(claim, 'inbox.claim claimed nothing due');
      const { id } = claim.entry;
      await refused(inbox.get('id\u0000'), /id/);
      await refused(inbox.get(42 as never), /id/);
      await refused(inbox.list({ outcome: 'paid\u0000' }), /outcome/);
      await refused(inbox.list({ outcome: 5 as never }), /outcome/);
      await refused(
        inbox.finish(id, claim.token, { status: 'done', outcome: 'paid\u0000' }),
        /outcome/,
      );
      await refused(inbox.finish(id, 'token\u0000', { status: 'done', outcome: 'paid' }), /token/);
      await refused(
        inbox.finish(`${id}\u0000`, claim.token, { status: 'dead', error: 'gone' }),
        /id/,
      );
      await refused(inbox.finish(id, claim.token, { status: 'dead', error: 7 as never }), /error/);
      await refused(inbox.finish(id, claim.token, { status: 'dead' } as never), /error/);
      await refused(inbox.finish(id, claim.token, null as never), /finish/);
      await refused(
        inbox.finish(id, claim.token, {
          status: 'pending',
          dueAt: t.clock.now(),
          error: {} as never,
        }),
        /error/,
      );
      // Nothing above changed the entry: still held by the claim, no outcome, no error.
      matches(await inbox.get(id), { status: 'processing', outcome: null, lastError: null });
    });

    it("a failure's text with a NUL is kept with the NUL replaced: the worker can always record a failure", {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('N3'));
      const [first] = await inbox.claim({ leaseMs: 60_000 });
      truthy(first, 'inbox.claim claimed nothing due');
      const failure = `platform said: bad\u0000byte ${'x'.repeat(3000)}`;
      equal(
        await inbox.finish(first.entry.id, first.token, {
          status: 'pending',
          dueAt: t.clock.now(),
          error: failure,
        }),
        true,
      );
      equal(
        (await inbox.get(first.entry.id))?.lastError,
        failure.slice(0, 2000).replace('\u0000', '\uFFFD'),
        'the error kept (at most 2000 characters, a NUL as U+FFFD)',
      );
      const [second] = await inbox.claim({ leaseMs: 60_000 });
      truthy(second, 'the rescheduled entry was not due again');
      equal(
        await inbox.finish(second.entry.id, second.token, {
          status: 'dead',
          error: 'gone\u0000for good',
        }),
        true,
      );
      equal((await inbox.get(second.entry.id))?.lastError, 'gone\uFFFDfor good');
    });

    it('claims due entries oldest first, with a lease, and counts the attempt', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      const a = await inbox.append(callback('A'));
      t.clock.advance(10);
      const b = await inbox.append(callback('B'));
      const claims = await inbox.claim({ leaseMs: 30_000, limit: 10 });
      equal(
        claims.map((claim) => claim.entry.id),
        [a.entry.id, b.entry.id],
      );
      for (const claim of claims) {
        matches(claim.entry, {
          status: 'processing',
          attempts: 1,
          leaseUntil: new Date(t.clock.now().getTime() + 30_000),
        });
        truthy(
          claim.token.length >= 16,
          `a claim token of 16 characters or more, got ${claim.token}`,
        );
      }
      // Held entries are not claimed again while the lease runs.
      equal(await inbox.claim({ leaseMs: 30_000 }), []);
    });

    it('respects the limit', async (t) => {
      const { inbox } = await t.open();
      for (const reference of ['L1', 'L2', 'L3']) await inbox.append(callback(reference));
      equal((await inbox.claim({ leaseMs: 1000, limit: 2 })).length, 2);
      equal((await inbox.claim({ leaseMs: 1000, limit: 2 })).length, 1);
    });

    it('complete is fenced by the token and records the outcome', { clock: true }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('C'));
      const [claim] = await inbox.claim({ leaseMs: 1000 });
      truthy(claim, 'inbox.claim claimed nothing due');
      equal(
        await inbox.finish(claim.entry.id, 'not-the-token', { status: 'done', outcome: 'paid' }),
        false,
        'another token completed',
      );
      equal(
        await inbox.finish(claim.entry.id, claim.token, { status: 'done', outcome: 'paid' }),
        true,
      );
      matches(await inbox.get(claim.entry.id), {
        status: 'done',
        outcome: 'paid',
        leaseUntil: null,
        processedAt: t.clock.now(),
      });
      // Completing twice does nothing: the lease is gone.
      equal(
        await inbox.finish(claim.entry.id, claim.token, { status: 'done', outcome: 'failed' }),
        false,
        'completed twice',
      );
      equal((await inbox.get(claim.entry.id))?.outcome, 'paid');
      equal(await inbox.claim({ leaseMs: 1000 }), []);
    });

    it('an expired lease is taken over, and the old worker can no longer write', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('X'));
      const [first] = await inbox.claim({ leaseMs: 1000 });
      truthy(first, 'inbox.claim claimed nothing due');
      t.clock.advance(1001);
      // Expired but not yet taken over: still fenced off.
      equal(
        await inbox.finish(first.entry.id, first.token, { status: 'done', outcome: 'paid' }),
        false,
        'an expired lease completed',
      );
      const [second] = await inbox.claim({ leaseMs: 1000 });
      truthy(second, 'an expired lease was not claimed again');
      equal(second.entry.id, first.entry.id);
      equal(second.entry.attempts, 2);
      truthy(second.token !== first.token, 'the second claim reused the first token');
      equal(
        await inbox.finish(first.entry.id, first.token, { status: 'done', outcome: 'paid' }),
        false,
      );
      equal(
        await inbox.finish(first.entry.id, first.token, {
          status: 'pending',
          dueAt: t.clock.now(),
          error: 'x',
        }),
        false,
      );
      equal(await inbox.finish(first.entry.id, first.token, { status: 'dead', error: 'x' }), false);
      equal(
        await inbox.finish(first.entry.id, second.token, { status: 'done', outcome: 'failed' }),
        true,
      );
      equal((await inbox.get(first.entry.id))?.outcome, 'failed');
    });

    it('a pending finish puts the entry back, due later, with the error kept', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('S'));
      const [claim] = await inbox.claim({ leaseMs: 1000 });
      truthy(claim, 'inbox.claim claimed nothing due');
      const dueAt = t.clock.at(5000);
      equal(
        await inbox.finish(claim.entry.id, claim.token, {
          status: 'pending',
          dueAt,
          error: 'platform timeout',
        }),
        true,
      );
      matches(await inbox.get(claim.entry.id), {
        status: 'pending',
        lastError: 'platform timeout',
        attempts: 1,
      });
      equal(await inbox.claim({ leaseMs: 1000 }), []);
      t.clock.advance(5000);
      const [again] = await inbox.claim({ leaseMs: 1000 });
      equal(again?.entry.attempts, 2);
    });

    it('dead-lettered entries are listed and never claimed again', { clock: true }, async (t) => {
      const { inbox } = await t.open();
      await inbox.append(callback('D'));
      await inbox.append(callback('E'));
      const [dead, done] = await inbox.claim({ leaseMs: 1000 });
      truthy(dead && done, 'inbox.claim did not claim both entries');
      equal(
        await inbox.finish(dead.entry.id, dead.token, {
          status: 'dead',
          error: 'gave up after 8 attempts',
        }),
        true,
      );
      await inbox.finish(done.entry.id, done.token, { status: 'done', outcome: 'orphan' });
      const deadList = await inbox.list({ status: 'dead' });
      equal(
        deadList.map((entry) => entry.id),
        [dead.entry.id],
      );
      matches(deadList[0], { lastError: 'gave up after 8 attempts', outcome: 'dead' });
      equal(
        (await inbox.list({ outcome: 'orphan' })).map((entry) => entry.id),
        [done.entry.id],
      );
      t.clock.advance(60_000);
      equal(await inbox.claim({ leaseMs: 1000 }), []);
    });

    it('backlog counts what is due now, what is being processed and what is scheduled later', {
      clock: true,
    }, async (t) => {
      const { inbox } = await t.open();
      equal(await inbox.backlog(), { due: 0, processing: 0, scheduled: 0 });
      for (const reference of ['R1', 'R2', 'R3', 'R4']) await inbox.append(callback(reference));
      equal(await inbox.backlog(), { due: 4, processing: 0, scheduled: 0 });
      const [first, second, third] = await inbox.claim({ leaseMs: 1000, limit: 3 });
      truthy(first && second && third, 'inbox.claim did not claim three entries');
      equal(await inbox.backlog(), { due: 1, processing: 3, scheduled: 0 });
      await inbox.finish(first.entry.id, first.token, { status: 'done', outcome: 'paid' });
      await inbox.finish(second.entry.id, second.token, { status: 'dead', error: 'gave up' });
      await inbox.finish(third.entry.id, third.token, {
        status: 'pending',
        dueAt: t.clock.at(60_000),
      });
      // done and dead are not work; the rescheduled one waits for its time.
      equal(await inbox.backlog(), { due: 1, processing: 0, scheduled: 1 });
      t.clock.advance(60_000);
      equal(await inbox.backlog(), { due: 2, processing: 0, scheduled: 0 });
      // A processing entry whose lease expired is still processing until someone takes it.
      await inbox.claim({ leaseMs: 1000, limit: 1 });
      t.clock.advance(5_000);
      equal(await inbox.backlog(), { due: 1, processing: 1, scheduled: 0 });
    });

    it('returns copies', async (t) => {
      const { inbox } = await t.open();
      const { entry } = await inbox.append(callback('K'));
      entry.claim.amount = 1;
      entry.headers['x'] = 'y';
      const again = await inbox.get(entry.id);
      equal(again?.claim.amount, 15000);
      equal(again?.headers['x'], undefined);
    });
  },
);
