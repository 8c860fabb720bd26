import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { MemoryReferenceStore, type TransactionRecord } from '../../src/references/index.js';
import { moves } from '../helpers/moves.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fund, lostAnswer } from './helpers.js';

let harness: Harness;
let store: MemoryReferenceStore;
let pesakit: Pesakit;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});
beforeEach(async () => {
  await harness.control('reset', {});
  store = new MemoryReferenceStore();
  pesakit = harness.client({ store });
});

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('needs_review: what automation cannot decide goes to a person, with evidence', () => {
  it('collection unknown without a reference, past the window: no_platform_reference, never failed', async () => {
    await lostAnswer(harness, 'collection', store, (client, fast) =>
      client.collection.initiateMno(
        { amount: 6_000, msisdn: '255754123456' },
        { merchantReference: 'col-noref', ...fast },
      ),
    );
    const reviewed: [string, string][] = [];
    const reconciler = pesakit.createReconciler({
      noReferenceWindowMs: 0,
      onReview: (record, verdict) => void reviewed.push([record.merchantReference, verdict.reason]),
    });
    const events: string[] = [];
    reconciler.on('review', (_record, verdict) => events.push(verdict.reason));
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1, failed: 0 });
    expect(events).toEqual(['no_platform_reference']);
    expect(reviewed).toEqual([['col-noref', 'no_platform_reference']]);
    const record = await store.records.get('col-noref');
    expect(record?.status).toBe('needs_review');
    expect(record?.review?.reason).toBe('no_platform_reference');
    await reconciler.close();
  });

  it('airtime purchase whose answer was lost: ambiguous_evidence with the wallet attached', async () => {
    await fund(harness, 'airtime', 100_000);
    await lostAnswer(harness, 'airtime', store, (client, fast) =>
      client.airtime.purchase(
        { amount: 2_000, msisdn: '255754123456' },
        { merchantReference: 'air-lost', ...fast },
      ),
    );
    expect((await store.records.get('air-lost'))?.status).toBe('unknown');
    const reconciler = pesakit.createReconciler();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1 });
    const record = await store.records.get('air-lost');
    expect(record?.status).toBe('needs_review');
    expect(record?.review).toMatchObject({
      reason: 'ambiguous_evidence',
      evidence: { wallet: expect.objectContaining({ balance: expect.any(Number) }) },
    });
    await reconciler.close();
  });

  it('still pending past maxAttempts: max_attempts with every pulled answer', async () => {
    await pesakit.collection.initiateMno(
      { amount: 7_000, msisdn: '255754123998' },
      { merchantReference: 'col-stuck' },
    );
    const reconciler = pesakit.createReconciler({ maxAttempts: 3 });
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ pending: 1 });
    await later();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ pending: 1 });
    await later();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1 });
    const record = await store.records.get('col-stuck');
    expect(record?.status).toBe('needs_review');
    expect(record?.review?.reason).toBe('max_attempts');
    const evidence = record?.review?.evidence as { observations: { data: { status: string } }[] };
    expect(evidence.observations).toHaveLength(3);
    expect(evidence.observations.map((o) => o.data.status)).toEqual([
      'pending',
      'pending',
      'pending',
    ]);
    // needs_review is not open: nothing pulls it again.
    await later();
    expect((await reconciler.runOnce({ force: true })).checked).toBe(0);
    await reconciler.close();
  });

  it('two payouts could be the lost one: ambiguous_match, never a guess', async () => {
    await fund(harness, 'disbursement', 1_000_000);
    await pesakit.disbursement.pay({ msisdn: '255754000700', amount: 3_000, name: 'Zawadi' });
    await harness
      .client()
      .disbursement.pay({ msisdn: '255754000700', amount: 3_000, name: 'Zawadi' });
    await store.records.create({
      merchantReference: 'payout-which',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 3_000,
      msisdn: '255754000700',
    });
    await moves(store).transition('payout-which', 'unknown');
    // The first payout is another record's (it owns its refid); the second row is unowned —
    // exactly one candidate. Add a third unowned one to make it ambiguous.
    await harness
      .client()
      .disbursement.pay({ msisdn: '255754000700', amount: 3_000, name: 'Zawadi' });
    const reconciler = pesakit.createReconciler({ settleWindowMs: 3_600_000 });
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1, settled: 0 });
    const record = await store.records.get('payout-which');
    expect(record?.status).toBe('needs_review');
    expect(record?.refid).toBeNull();
    expect(record?.review).toMatchObject({
      reason: 'ambiguous_match',
      evidence: { candidates: [expect.anything(), expect.anything()] },
    });
    await reconciler.close();
  });

  it('a success for another amount: needs_review amount_mismatch, onPaid never runs', async () => {
    const paid: TransactionRecord[] = [];
    const payment = await pesakit.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456' },
      { merchantReference: 'col-short' },
    );
    const engine = await fetch(`${harness.url}/api/sandbox/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'Payment successful',
        code: '200',
        status: true,
        description: 'Settled',
        data: {
          providerType: 'MNO',
          providerName: 'Vodacom',
          amount: 14_000,
          paymentReference: payment.reference,
          payerMobile: '255754123456',
          transactionDate: '2024-06-01 12:30:00',
          transactionID: 'MP240601.1230.SHORT',
          transactionChannel: 'USSD',
        },
      }),
    });
    expect(engine.status).toBe(200);
    const reconciler = pesakit.createReconciler({ onPaid: (record) => void paid.push(record) });
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1, settled: 0 });
    expect((await store.records.get('col-short'))?.review?.reason).toBe('amount_mismatch');
    expect(paid).toEqual([]);
    await reconciler.close();
  });
});

describe('one claim, one effect, whichever path wins', () => {
  it('a record settled by another path first: the reconciler does not settle it again, and its handler runs once', async () => {
    const paid: string[] = [];
    const payment = await pesakit.collection.initiateMno(
      { amount: 9_000, msisdn: '255754123456' },
      { merchantReference: 'col-race' },
    );
    await harness.control('collection/settle', {
      ref_id: payment.controlNumber,
      outcome: 'success',
    });
    // Another path (collection.status, as the callback receiver would) wins the transition.
    await pesakit.collection.status(payment.controlNumber);
    expect((await store.records.get('col-race'))?.status).toBe('success');
    const reconciler = pesakit.createReconciler({
      onPaid: (record) => void paid.push(record.merchantReference),
    });
    const settled: string[] = [];
    reconciler.on('settled', (record) => settled.push(record.merchantReference));
    await reconciler.runOnce({ force: true });
    await reconciler.runOnce({ force: true });
    expect(settled).toEqual([]);
    // The effect the other path left due is run by the reconciler's drain — once.
    expect(paid).toEqual(['col-race']);
    await reconciler.close();
  });

  it('a handler that throws is reported and run again by a later pass until it completes', async () => {
    const payment = await pesakit.collection.initiateMno(
      { amount: 9_500, msisdn: '255754123456' },
      { merchantReference: 'col-flaky-handler' },
    );
    await harness.control('collection/settle', {
      ref_id: payment.controlNumber,
      outcome: 'success',
    });
    const attempts: number[] = [];
    const reconciler = pesakit.createReconciler({
      onPaid: (_record, { attempt }) => {
        attempts.push(attempt);
        if (attempt === 1) throw new Error('the order service is down');
      },
    });
    const errors: unknown[] = [];
    reconciler.on('error', (error) => errors.push(error));
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ settled: 1 });
    expect(String(errors[0])).toMatch(/order service is down/);
    expect((await store.records.get('col-flaky-handler'))?.effect.status).toBe('due');
    // The runner retries after its first backoff step (1 s); each pass drains what is due.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      await reconciler.runOnce();
      if ((await store.records.get('col-flaky-handler'))?.effect.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(attempts).toEqual([1, 2]);
    expect((await store.records.get('col-flaky-handler'))?.status).toBe('success');
    await reconciler.close();
  });
});
