import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../src/errors/store-input-error.js';
import type { CallbackInbox, InboxAppend } from '../../src/references/inbox/types.js';
import type { ReferenceStore } from '../../src/references/types.js';

/** A clock the tests move by hand, so lease expiry is decided, not waited for. */
export class TestClock {
  #now = new Date('2026-03-01T08:00:00.000Z').getTime();
  now = (): Date => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
}

export interface InboxSubject {
  open(options: { now: () => Date }): Promise<ReferenceStore>;
  dispose?(): Promise<void>;
}

export function callback(reference: string, overrides: Partial<InboxAppend> = {}): InboxAppend {
  return {
    dedupKey: `key-${reference}`,
    method: 'POST',
    url: `/callback?pesakit_ref=order-${reference}`,
    headers: { 'content-type': 'application/json', authorization: '[redacted]' },
    body: JSON.stringify({ status: true, data: { paymentReference: reference } }),
    claim: {
      status: 'success',
      amount: 15000,
      paymentReference: reference,
      controlNumber: `99${reference}`,
      externalReference: null,
      transactionId: 'MP1',
      merchantReferenceHint: `order-${reference}`,
    },
    ...overrides,
  };
}

/** One suite for every CallbackInbox: memory, SQLite and PostgreSQL must all pass it. */
export function describeCallbackInbox(name: string, subject: InboxSubject): void {
  describe(`CallbackInbox conformance: ${name}`, () => {
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

    it('appends the raw callback and keeps every field', async () => {
      const input = callback('R1');
      const { entry, duplicate } = await inbox.append(input);
      expect(duplicate).toBe(false);
      expect(entry).toMatchObject({
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
      });
      expect(entry.receivedAt.toISOString()).toBe(clock.now().toISOString());
      expect(await inbox.get(entry.id)).toEqual(entry);
    });

    it('an entry appended with an earlier dueAt is claimed first (a known record before orphans)', async () => {
      await inbox.append(callback('O1'));
      await inbox.append(callback('O2'));
      const early = new Date(clock.now().getTime() - 3_600_000);
      const { entry } = await inbox.append(callback('K1', { dueAt: early }));
      expect(entry).toMatchObject({ dueAt: early, receivedAt: clock.now() });
      const claims = await inbox.claim({ leaseMs: 60_000, limit: 2 });
      expect(claims.map((claim) => claim.entry.claim.paymentReference)).toEqual(['K1', 'O1']);
      await expect(inbox.append(callback('K2', { dueAt: new Date(Number.NaN) }))).rejects.toThrow(
        /dueAt/,
      );
    });

    it('the same dedup key again is counted, not appended', async () => {
      const first = await inbox.append(callback('R2'));
      const results = await Promise.all(
        Array.from({ length: 5 }, () => inbox.append(callback('R2'))),
      );
      for (const result of results) {
        expect(result.duplicate).toBe(true);
        expect(result.entry.id).toBe(first.entry.id);
      }
      expect((await inbox.get(first.entry.id))?.duplicates).toBe(5);
      expect(await inbox.list()).toHaveLength(1);
    });

    it('concurrent first appends of one key store exactly one entry', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, () => inbox.append(callback('R3'))),
      );
      expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
      expect((await inbox.list())[0]?.duplicates).toBe(7);
    });

    it('bad input names the field and stores nothing', async () => {
      await expect(inbox.append(callback('R4', { dedupKey: '' }))).rejects.toThrow(StoreInputError);
      await expect(inbox.append(callback('R4', { dedupKey: '' }))).rejects.toThrow(/dedupKey/);
      await expect(inbox.claim({ leaseMs: 0 })).rejects.toThrow(/leaseMs/);
      expect(await inbox.list()).toEqual([]);
    });

    it('null where an object belongs (a JavaScript caller) is a StoreInputError, not a TypeError', async () => {
      await expect(inbox.append(null as never)).rejects.toThrow(StoreInputError);
      await expect(inbox.append(null as never)).rejects.toThrow(/entry/);
      await expect(inbox.claim(null as never)).rejects.toThrow(StoreInputError);
      await expect(inbox.claim(null as never)).rejects.toThrow(/options/);
      await expect(inbox.list(null as never)).rejects.toThrow(StoreInputError);
      await expect(inbox.list(null as never)).rejects.toThrow(/options/);
      expect(await inbox.list()).toEqual([]);
    });

    it('a NUL or a wrong type in any field is a StoreInputError naming it, the same in every inbox (PostgreSQL text cannot hold a NUL)', async () => {
      const refused = async (call: Promise<unknown>, field: RegExp) => {
        const error = await call.then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(StoreInputError);
        expect(String((error as Error).message)).toMatch(field);
      };
      await refused(inbox.append(callback('N1', { url: '/callback?x=\u0000' })), /url/);
      await refused(inbox.append(callback('N1', { method: 'PO\u0000ST' })), /method/);
      await refused(inbox.append(callback('N1', { body: '{"a":"\u0000"}' })), /body/);
      await refused(inbox.append(callback('N1', { dedupKey: 'k\u0000' })), /dedupKey/);
      expect(await inbox.list()).toEqual([]);

      await inbox.append(callback('N2'));
      const [claim] = await inbox.claim({ leaseMs: 60_000 });
      const { id } = claim!.entry;
      await refused(inbox.get('id\u0000'), /id/);
      await refused(inbox.get(42 as never), /id/);
      await refused(inbox.list({ outcome: 'paid\u0000' }), /outcome/);
      await refused(inbox.list({ outcome: 5 as never }), /outcome/);
      await refused(inbox.complete(id, claim!.token, 'paid\u0000'), /outcome/);
      await refused(inbox.complete(id, 'token\u0000', 'paid'), /token/);
      await refused(inbox.deadLetter(`${id}\u0000`, claim!.token, 'gone'), /id/);
      await refused(inbox.deadLetter(id, claim!.token, 7 as never), /error/);
      await refused(inbox.reschedule(id, claim!.token, null as never), /options/);
      await refused(
        inbox.reschedule(id, claim!.token, { dueAt: clock.now(), error: {} as never }),
        /error/,
      );
      // Nothing above changed the entry: still held by the claim, no outcome, no error.
      const entry = await inbox.get(id);
      expect(entry).toMatchObject({ status: 'processing', outcome: null, lastError: null });
    });

    it("a failure's text with a NUL is kept with the NUL replaced: the worker can always record a failure", async () => {
      await inbox.append(callback('N3'));
      const [first] = await inbox.claim({ leaseMs: 60_000 });
      const failure = `platform said: bad\u0000byte ${'x'.repeat(3000)}`;
      expect(
        await inbox.reschedule(first!.entry.id, first!.token, {
          dueAt: clock.now(),
          error: failure,
        }),
      ).toBe(true);
      const rescheduled = await inbox.get(first!.entry.id);
      expect(rescheduled?.lastError).toBe(failure.slice(0, 2000).replace('\u0000', '\uFFFD'));
      const [second] = await inbox.claim({ leaseMs: 60_000 });
      expect(await inbox.deadLetter(second!.entry.id, second!.token, 'gone\u0000for good')).toBe(
        true,
      );
      expect((await inbox.get(second!.entry.id))?.lastError).toBe('gone\uFFFDfor good');
    });

    it('claims due entries oldest first, with a lease, and counts the attempt', async () => {
      const a = await inbox.append(callback('A'));
      clock.advance(10);
      const b = await inbox.append(callback('B'));
      const claims = await inbox.claim({ leaseMs: 30_000, limit: 10 });
      expect(claims.map((claim) => claim.entry.id)).toEqual([a.entry.id, b.entry.id]);
      for (const claim of claims) {
        expect(claim.entry.status).toBe('processing');
        expect(claim.entry.attempts).toBe(1);
        expect(claim.entry.leaseUntil?.getTime()).toBe(clock.now().getTime() + 30_000);
        expect(claim.token).toMatch(/.{16,}/);
      }
      // Held entries are not claimed again while the lease runs.
      expect(await inbox.claim({ leaseMs: 30_000 })).toEqual([]);
    });

    it('respects the limit', async () => {
      for (const reference of ['L1', 'L2', 'L3']) await inbox.append(callback(reference));
      expect(await inbox.claim({ leaseMs: 1000, limit: 2 })).toHaveLength(2);
      expect(await inbox.claim({ leaseMs: 1000, limit: 2 })).toHaveLength(1);
    });

    it('complete is fenced by the token and records the outcome', async () => {
      await inbox.append(callback('C'));
      const [claim] = await inbox.claim({ leaseMs: 1000 });
      if (!claim) throw new Error('expected a claim');
      expect(await inbox.complete(claim.entry.id, 'not-the-token', 'paid')).toBe(false);
      expect(await inbox.complete(claim.entry.id, claim.token, 'paid')).toBe(true);
      const done = await inbox.get(claim.entry.id);
      expect(done).toMatchObject({ status: 'done', outcome: 'paid', leaseUntil: null });
      expect(done?.processedAt?.toISOString()).toBe(clock.now().toISOString());
      // Completing twice does nothing: the lease is gone.
      expect(await inbox.complete(claim.entry.id, claim.token, 'failed')).toBe(false);
      expect((await inbox.get(claim.entry.id))?.outcome).toBe('paid');
      expect(await inbox.claim({ leaseMs: 1000 })).toEqual([]);
    });

    it('an expired lease is taken over, and the old worker can no longer write', async () => {
      await inbox.append(callback('X'));
      const [first] = await inbox.claim({ leaseMs: 1000 });
      if (!first) throw new Error('expected a claim');
      clock.advance(1001);
      // Expired but not yet taken over: still fenced off.
      expect(await inbox.complete(first.entry.id, first.token, 'paid')).toBe(false);
      const [second] = await inbox.claim({ leaseMs: 1000 });
      expect(second?.entry.id).toBe(first.entry.id);
      expect(second?.entry.attempts).toBe(2);
      expect(second?.token).not.toBe(first.token);
      expect(await inbox.complete(first.entry.id, first.token, 'paid')).toBe(false);
      expect(
        await inbox.reschedule(first.entry.id, first.token, { dueAt: clock.now(), error: 'x' }),
      ).toBe(false);
      expect(await inbox.deadLetter(first.entry.id, first.token, 'x')).toBe(false);
      expect(await inbox.complete(first.entry.id, second?.token ?? '', 'failed')).toBe(true);
      expect((await inbox.get(first.entry.id))?.outcome).toBe('failed');
    });

    it('reschedule puts the entry back, due later, with the error kept', async () => {
      await inbox.append(callback('S'));
      const [claim] = await inbox.claim({ leaseMs: 1000 });
      if (!claim) throw new Error('expected a claim');
      const dueAt = new Date(clock.now().getTime() + 5000);
      expect(
        await inbox.reschedule(claim.entry.id, claim.token, { dueAt, error: 'platform timeout' }),
      ).toBe(true);
      expect(await inbox.get(claim.entry.id)).toMatchObject({
        status: 'pending',
        lastError: 'platform timeout',
        attempts: 1,
      });
      expect(await inbox.claim({ leaseMs: 1000 })).toEqual([]);
      clock.advance(5000);
      const [again] = await inbox.claim({ leaseMs: 1000 });
      expect(again?.entry.attempts).toBe(2);
    });

    it('dead-lettered entries are listed and never claimed again', async () => {
      await inbox.append(callback('D'));
      await inbox.append(callback('E'));
      const claims = await inbox.claim({ leaseMs: 1000 });
      const [dead, done] = claims;
      if (!dead || !done) throw new Error('expected two claims');
      expect(await inbox.deadLetter(dead.entry.id, dead.token, 'gave up after 8 attempts')).toBe(
        true,
      );
      await inbox.complete(done.entry.id, done.token, 'orphan');
      const deadList = await inbox.list({ status: 'dead' });
      expect(deadList.map((entry) => entry.id)).toEqual([dead.entry.id]);
      expect(deadList[0]).toMatchObject({ lastError: 'gave up after 8 attempts', outcome: 'dead' });
      expect((await inbox.list({ outcome: 'orphan' })).map((entry) => entry.id)).toEqual([
        done.entry.id,
      ]);
      clock.advance(60_000);
      expect(await inbox.claim({ leaseMs: 1000 })).toEqual([]);
    });

    it('backlog counts what is due now, what is being processed and what is scheduled later', async () => {
      expect(await inbox.backlog()).toEqual({ due: 0, processing: 0, scheduled: 0 });
      for (const reference of ['R1', 'R2', 'R3', 'R4']) await inbox.append(callback(reference));
      expect(await inbox.backlog()).toEqual({ due: 4, processing: 0, scheduled: 0 });
      const [first, second, third] = await inbox.claim({ leaseMs: 1000, limit: 3 });
      if (!first || !second || !third) throw new Error('expected three claims');
      expect(await inbox.backlog()).toEqual({ due: 1, processing: 3, scheduled: 0 });
      await inbox.complete(first.entry.id, first.token, 'paid');
      await inbox.deadLetter(second.entry.id, second.token, 'gave up');
      await inbox.reschedule(third.entry.id, third.token, {
        dueAt: new Date(clock.now().getTime() + 60_000),
      });
      // done and dead are not work; the rescheduled one waits for its time.
      expect(await inbox.backlog()).toEqual({ due: 1, processing: 0, scheduled: 1 });
      clock.advance(60_000);
      expect(await inbox.backlog()).toEqual({ due: 2, processing: 0, scheduled: 0 });
      // A processing entry whose lease expired is still processing until someone takes it.
      await inbox.claim({ leaseMs: 1000, limit: 1 });
      clock.advance(5_000);
      expect(await inbox.backlog()).toEqual({ due: 1, processing: 1, scheduled: 0 });
    });

    it('returns copies', async () => {
      const { entry } = await inbox.append(callback('K'));
      entry.claim.amount = 1;
      entry.headers['x'] = 'y';
      const again = await inbox.get(entry.id);
      expect(again?.claim.amount).toBe(15000);
      expect(again?.headers['x']).toBeUndefined();
    });
  });
}
