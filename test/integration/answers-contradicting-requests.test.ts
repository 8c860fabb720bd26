import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { MemoryReferenceStore, type TransactionRecord } from '../../src/references/index.js';
import {
  type AnswerContradictsRequestError,
  isAnswerContradictsRequestError,
} from '../../src/resources/answer-contradicts-request-error.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fund } from '../reconciler/helpers.js';

// An answer that says another amount, MSISDN, reference or inner status than the request asked
// is not success: the record goes to needs_review with the evidence, and the call throws.

let harness: Harness;
let store: MemoryReferenceStore;
let pesakit: Pesakit;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(async () => {
  await harness.control('reset', {});
  await fund(harness, 'disbursement', 1_000_000);
  await fund(harness, 'airtime', 1_000_000);
  store = new MemoryReferenceStore();
  pesakit = harness.client({ store });
});

async function contradicted(send: () => Promise<unknown>): Promise<AnswerContradictsRequestError> {
  const error = await send().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isAnswerContradictsRequestError(error), String(error)).toBe(true);
  return error as AnswerContradictsRequestError;
}

/** The review handler runs for the record, never the success handler. */
async function handlersRun(): Promise<{ reviewed: TransactionRecord[]; paid: number }> {
  const reviewed: TransactionRecord[] = [];
  let paid = 0;
  const reconciler = pesakit.createReconciler({
    onPaid: () => {
      paid += 1;
    },
    onReview: (record) => {
      reviewed.push(record);
    },
  });
  await reconciler.runOnce({ force: true });
  await reconciler.close();
  return { reviewed, paid };
}

const payout = { msisdn: '255754123456', amount: 5_000, name: 'Asha' };

describe('a payout answer that contradicts the request', () => {
  it('another amount (10×): needs_review with the field, what was asked and what was answered', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'amount' } });
    const events: unknown[] = [];
    pesakit.on('error', (event) => events.push(event.error));
    const error = await contradicted(() =>
      pesakit.disbursement.pay(payout, { merchantReference: 'payout-10x' }),
    );
    expect(events).toEqual([error]);
    expect(error.code).toBe('answer_contradicts_request');
    expect(error.merchantReference).toBe('payout-10x');
    expect(error.contradictions).toEqual([{ field: 'amount', asked: 5_000, answered: 50_000 }]);
    expect(error.message).toContain('payout-10x');
    expect(error.record.status).toBe('needs_review');
    const record = await store.records.get('payout-10x');
    expect(record).toMatchObject({
      status: 'needs_review',
      review: {
        reason: 'answer_contradicts_request',
        evidence: { contradictions: [{ field: 'amount', asked: 5_000, answered: 50_000 }] },
      },
    });
    expect(record?.refid).not.toBeNull();
    const { reviewed, paid } = await handlersRun();
    expect(reviewed.map((r) => r.merchantReference)).toEqual(['payout-10x']);
    expect(paid).toBe(0);
  });

  it('another MSISDN: needs_review', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'msisdn' } });
    const error = await contradicted(() =>
      pesakit.disbursement.pay(payout, { merchantReference: 'payout-other-number' }),
    );
    expect(error.contradictions).toEqual([
      { field: 'msisdn', asked: '255754123456', answered: '255754123457' },
    ]);
    expect((await store.records.get('payout-other-number'))?.status).toBe('needs_review');
  });

  it('response.status true with an inner payment.status "failed": needs_review, not success', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'status' } });
    const error = await contradicted(() =>
      pesakit.disbursement.pay(payout, { merchantReference: 'payout-inner-failed' }),
    );
    expect(error.contradictions).toEqual([
      { field: 'status', asked: 'completed', answered: 'failed' },
    ]);
    expect((await store.records.get('payout-inner-failed'))?.status).toBe('needs_review');
  });

  it('an answer that agrees with the request is success, as before', async () => {
    const paid = await pesakit.disbursement.pay(payout, { merchantReference: 'payout-true' });
    expect(paid.record.status).toBe('success');
  });
});

describe("a payout answer with nothing to compare (the spec's own answer)", () => {
  /** A reconciler pass with the money-out handlers: which records each one saw. */
  async function payoutHandlersRun(): Promise<{ sent: string[]; reviewed: string[] }> {
    const sent: string[] = [];
    const reviewed: string[] = [];
    const reconciler = pesakit.createReconciler({
      onSent: (record) => {
        sent.push(record.merchantReference);
      },
      onReview: (record) => {
        reviewed.push(record.merchantReference);
      },
    });
    await reconciler.runOnce({ force: true });
    await reconciler.close();
    return { sent, reviewed };
  }

  it('is pending until the payout history shows the same amount, MSISDN and name', async () => {
    await harness.control('faults', { bareAnswers: { next: 1 } });
    const paid = await pesakit.disbursement.pay(payout, { merchantReference: 'payout-bare' });
    expect(paid.response.status).toBe(true);
    expect(paid).not.toHaveProperty('payment');
    expect(paid.record).toMatchObject({ status: 'pending', metadata: { name: 'Asha' } });
    expect(paid.record.statusReason).toContain('payout history confirms');
    expect(await payoutHandlersRun()).toEqual({ sent: ['payout-bare'], reviewed: [] });
    expect(await store.records.get('payout-bare')).toMatchObject({ status: 'success' });
    expect(await payoutHandlersRun()).toEqual({ sent: [], reviewed: [] });
  });

  it('goes to review, never success, when the payout history shows another amount', async () => {
    await harness.control('faults', {
      bareAnswers: { next: 1 },
      contradict: { next: 1, field: 'amount', in: 'history' },
    });
    const paid = await pesakit.disbursement.pay(payout, { merchantReference: 'payout-lied' });
    expect(paid.record.status).toBe('pending');
    expect(await payoutHandlersRun()).toEqual({ sent: [], reviewed: ['payout-lied'] });
    expect(await store.records.get('payout-lied')).toMatchObject({
      status: 'needs_review',
      review: { reason: 'amount_mismatch', evidence: { row: { amount: 50_000 } } },
    });
  });

  it('goes to review when the history names another recipient; status() confirms on demand', async () => {
    await harness.control('faults', {
      bareAnswers: { next: 2 },
      contradict: { next: 1, field: 'msisdn', in: 'history' },
    });
    await pesakit.disbursement.pay(payout, { merchantReference: 'payout-elsewhere' });
    await pesakit.disbursement.pay(payout, { merchantReference: 'payout-confirmed' });
    const elsewhere = await pesakit.disbursement.status('payout-elsewhere');
    expect(elsewhere).toMatchObject({
      status: 'needs_review',
      review: { reason: 'answer_contradicts_request' },
    });
    expect((await pesakit.disbursement.status('payout-confirmed')).status).toBe('success');
  });
});

describe('an airtime answer that contradicts the request', () => {
  it('another amount: needs_review, and the review handler runs', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'amount' } });
    const error = await contradicted(() =>
      pesakit.airtime.purchase(
        { msisdn: '255754123456', amount: 1_000 },
        { merchantReference: 'air-10x' },
      ),
    );
    expect(error.contradictions).toEqual([{ field: 'amount', asked: 1_000, answered: 10_000 }]);
    const { reviewed, paid } = await handlersRun();
    expect(reviewed.map((r) => r.merchantReference)).toEqual(['air-10x']);
    expect(paid).toBe(0);
  });

  it('another MSISDN: needs_review', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'msisdn' } });
    await contradicted(() =>
      pesakit.airtime.purchase(
        { msisdn: '255754123456', amount: 1_000 },
        { merchantReference: 'air-other-number' },
      ),
    );
    expect((await store.records.get('air-other-number'))?.status).toBe('needs_review');
  });

  it('a bulk row answered with another amount is not counted as a success', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'amount' } });
    const result = await pesakit.airtime.bulkPurchase([{ msisdn: '255754123456', amount: 1_000 }], {
      batchId: 'lies',
      concurrency: 1,
    });
    expect(result.rows[0]?.status).not.toBe('success');
    expect((await store.records.get('airtime:lies:1'))?.status).toBe('needs_review');
  });
});

describe('a collection initiation answered for another amount', () => {
  it('needs_review: the customer would be asked for what the merchant did not ask', async () => {
    await harness.control('faults', { contradict: { next: 1, field: 'amount' } });
    const error = await contradicted(() =>
      pesakit.collection.initiateBank({ amount: 2_000 }, { merchantReference: 'bank-10x' }),
    );
    expect(error.contradictions).toEqual([{ field: 'amount', asked: 2_000, answered: 20_000 }]);
    expect((await store.records.get('bank-10x'))?.status).toBe('needs_review');
  });
});

describe('the contradict fault', () => {
  it('counts down per lying answer; a field it does not know is a 422 naming it, and nothing changes', async () => {
    await harness.control('faults', { contradict: { next: 2, field: 'msisdn' } });
    await contradicted(() => pesakit.disbursement.pay(payout));
    expect(await harness.control('faults')).toEqual({
      faults: { contradict: { next: 1, field: 'msisdn' } },
    });
    const refused = await harness
      .control('faults', { contradict: { next: 1, field: 'charge' } })
      .catch((error: unknown) => String(error));
    expect(refused).toContain('422');
    expect(refused).toContain('contradict.field must be amount, msisdn, name or status');
    const nowhere = await harness
      .control('faults', { contradict: { next: 1, field: 'amount', in: 'ledger' } })
      .catch((error: unknown) => String(error));
    expect(nowhere).toContain('contradict.in must be answer or history');
    expect(await harness.control('faults')).toEqual({
      faults: { contradict: { next: 1, field: 'msisdn' } },
    });
  });
});
