import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isReferenceConflictError } from '../../../src/errors/reference-conflict-error.js';
import type { ReferenceStore, TransactionIntent } from '../../../src/references/index.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { failure } from '../../helpers/failure.js';

// On SQLite, a money call's two writes (createIntent, attachAndTransition without a lease) run
// as hand-written statements in one synchronous transaction (src/references/sql/
// sqlite-money-writes.ts). The store conformance suite runs them like every store; these pin
// what is particular to that path.

function intent(merchantReference: string): TransactionIntent {
  return { merchantReference, product: 'collection', flow: 'mno', amount: 5000 };
}

/** Lets other promise chains run until `condition` holds (at most `ticks` microtask turns). */
async function until(condition: () => boolean, ticks = 10_000): Promise<void> {
  for (let tick = 0; tick < ticks; tick++) {
    if (condition()) return;
    await Promise.resolve();
  }
  throw new Error('the condition never held');
}

describe('the SQLite money writes', () => {
  const opened: Array<{ store: ReferenceStore; database: Database.Database }> = [];
  afterEach(async () => {
    for (const { store, database } of opened.splice(0)) {
      await store.close();
      database.close();
    }
  });

  async function open() {
    const database = new Database(':memory:');
    const store = await SqliteReferenceStore.open(database);
    opened.push({ store, database });
    return { store, database };
  }

  it('never joins a transaction the store has open: a rolled-back claim takes no intent with it', async () => {
    const { store, database } = await open();
    await store.createIntent(intent('order-1'));
    await store.createIntent(intent('order-2'));
    await store.attachReferences('order-1', { refid: 'R-1' });
    // A claim that will be refused (R-1 is order-1's) runs as a transaction over several awaits.
    const refused = store.attachReferences('order-2', { controlNumber: 'CN-2', refid: 'R-1' });
    await until(() => database.inTransaction);
    // Written while that transaction is open: these must wait for it, not ride in it.
    const created = store.createIntent(intent('order-3'));
    const answered = store.attachAndTransition!('order-1', { controlNumber: 'CN-1' }, 'pending');
    expect(isReferenceConflictError(await failure(refused))).toBe(true);
    await created;
    await answered;
    expect(database.inTransaction).toBe(false);
    expect(await store.get('order-3')).toMatchObject({ status: 'initiating' });
    expect(await store.get('order-1')).toMatchObject({ status: 'pending', controlNumber: 'CN-1' });
    expect((await store.get('order-2'))?.controlNumber).toBeNull();
  });

  it('names the first owned value in field order, under any kind, and writes nothing', async () => {
    const { store } = await open();
    await store.createIntent(intent('order-1'));
    const before = await store.createIntent(intent('order-2'));
    await store.attachReferences('order-1', { txnid: 'SHARED-1' });
    const cases = [
      { refs: { controlNumber: 'CN-2', refid: 'SHARED-1' }, field: 'refid', owner: 'order-1' },
      {
        refs: { controlNumber: 'SHARED-1', refid: 'R-2' },
        field: 'controlNumber',
        owner: 'order-1',
      },
      { refs: { paymentReference: 'order-1' }, field: 'paymentReference', owner: 'order-1' },
    ] as const;
    for (const { refs, field, owner } of cases) {
      const error = await failure(store.attachAndTransition!('order-2', refs, 'pending'));
      expect(isReferenceConflictError(error)).toBe(true);
      expect(error).toMatchObject({ field, merchantReference: 'order-2' });
      expect((error as Error).message).toContain(`already belongs to ${owner}`);
      expect(await store.get('order-2')).toEqual(before);
    }
    expect(await store.findByReference('CN-2')).toBeUndefined();
    expect(await store.findByReference('R-2')).toBeUndefined();
  });

  it('returns records exactly as they read back: final status with its effect, review, payload', async () => {
    const { store } = await open();
    const created = await store.createIntent({
      ...intent('order-1'),
      amount: 1234.5,
      msisdn: '255754123456',
      metadata: { order: 'A-1' },
    });
    expect(await store.get('order-1')).toEqual(created);
    const paid = await store.attachAndTransition!('order-1', { controlNumber: 'CN-1' }, 'success', {
      payload: { status: 'success', amount: 1234.5, at: new Date('2026-11-23T10:00:00Z') },
      reason: 'paid',
    });
    expect(paid.changed).toBe(true);
    expect(paid.record.effect).toMatchObject({ status: 'due', attempts: 0 });
    expect(paid.record.lastPayload).toEqual({
      status: 'success',
      amount: 1234.5,
      at: '2026-11-23T10:00:00.000Z',
    });
    expect(await store.get('order-1')).toEqual(paid.record);

    await store.createIntent(intent('order-2'));
    const review = { reason: 'amount_mismatch', message: 'paid 10 of 5000' } as const;
    const held = await store.attachAndTransition!('order-2', { txnid: 'T-2' }, 'needs_review', {
      review,
    });
    expect(held.record).toMatchObject({ status: 'needs_review', review, lastPayload: null });
    expect(await store.get('order-2')).toEqual(held.record);
  });
});
