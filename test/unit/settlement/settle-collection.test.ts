import { describe, expect, it } from 'vitest';
import { applyCollectionObservation } from '../../../src/ledger/settle-collection.js';
import { MemoryReferenceStore, type TransactionRecord } from '../../../src/references/index.js';
import type { CollectionTransaction } from '../../../src/schemas/collection.js';
import { collectionTransaction } from '../../callbacks/collections.js';
import { moves } from '../../helpers/moves.js';

function answer(overrides: Partial<CollectionTransaction> = {}): CollectionTransaction {
  return collectionTransaction({
    controlNumber: 'CN-1',
    reference: 'ENG-1',
    created_at: '2025-03-01 08:00:00',
    updated_at: '2025-03-01 08:01:00',
    ...overrides,
  });
}

async function pendingRecord(status: 'pending' | 'unknown' = 'pending') {
  const store = new MemoryReferenceStore();
  await store.records.create({
    merchantReference: 'order-1',
    product: 'collection',
    flow: 'mno',
    amount: 15_000,
  });
  await moves(store).attachReferences('order-1', {
    controlNumber: 'CN-1',
    paymentReference: 'ENG-1',
  });
  const { record } = await moves(store).transition('order-1', status);
  return { store, record };
}

describe('a status answer settles a collection by the one rule of paid (spec rule 5)', () => {
  it('success with equal references and amount → success, won by this caller', async () => {
    const { store, record } = await pendingRecord();
    const result = await applyCollectionObservation(store, record, answer());
    expect(result).toMatchObject({ outcome: 'paid', changed: true, record: { status: 'success' } });
    expect(result.record.effect.status).toBe('due');
  });

  it('success for another amount → needs_review amount_mismatch with the answer as evidence', async () => {
    const { store, record } = await pendingRecord();
    const result = await applyCollectionObservation(store, record, answer({ paid_amount: 150 }));
    expect(result.outcome).toBe('review');
    expect(result.record).toMatchObject({
      status: 'needs_review',
      review: { reason: 'amount_mismatch', evidence: { status: { paid_amount: 150 } } },
    });
  });

  it('success naming another engine reference → needs_review reference_mismatch', async () => {
    const { store, record } = await pendingRecord();
    const result = await applyCollectionObservation(store, record, answer({ reference: 'ENG-9' }));
    expect(result.record.review?.reason).toBe('reference_mismatch');
  });

  it('failed about this record → failed; pending → no change; unknown + pending → pending', async () => {
    const failed = await pendingRecord();
    expect(
      (await applyCollectionObservation(failed.store, failed.record, answer({ status: 'failed' })))
        .record.status,
    ).toBe('failed');

    const waiting = await pendingRecord();
    const still = await applyCollectionObservation(
      waiting.store,
      waiting.record,
      answer({ status: 'pending', paid_amount: null }),
    );
    expect(still).toMatchObject({ outcome: 'pending', changed: false });

    const lost = await pendingRecord('unknown');
    const found = await applyCollectionObservation(
      lost.store,
      lost.record,
      answer({ status: 'pending', paid_amount: null }),
    );
    expect(found).toMatchObject({
      outcome: 'pending',
      changed: true,
      record: { status: 'pending' },
    });
  });

  it('a settled record is never reopened, and a stale copy loses the race without an error', async () => {
    const { store, record } = await pendingRecord();
    await applyCollectionObservation(store, record, answer());
    // `record` is the copy read before the first settlement: a second worker holding it.
    const late = await applyCollectionObservation(store, record, answer({ status: 'failed' }));
    expect(late).toMatchObject({ outcome: 'already_final', changed: false });
    expect((late.record as TransactionRecord).status).toBe('success');
    const again = await applyCollectionObservation(
      store,
      late.record,
      answer({ status: 'failed' }),
    );
    expect(again.outcome).toBe('already_final');
  });

  it('of many concurrent appliers exactly one wins the success', async () => {
    const { store, record } = await pendingRecord();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => applyCollectionObservation(store, record, answer())),
    );
    expect(results.filter((result) => result.changed)).toHaveLength(1);
  });
});
