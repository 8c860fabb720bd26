import type { ReferenceStore } from '../../src/references/types.js';
import { moves } from './moves.js';

export const customer = '255754123456';

/**
 * One record in each state the operations page shows: paid, failed, waiting for a person
 * (needs_review, unknown), a paid one whose handler gave up (dead effect), a dead callback.
 */
export async function seedOperations(store: ReferenceStore): Promise<void> {
  const intent = (merchantReference: string) =>
    store.records.create({
      merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: 5000,
      msisdn: customer,
    });
  for (const [reference, to] of [
    ['paid-1', 'success'],
    ['failed-1', 'failed'],
    ['unknown-1', 'unknown'],
    ['dead-1', 'success'],
  ] as const) {
    await intent(reference);
    await moves(store).transition(reference, to, { payload: { msisdn: customer, status: to } });
  }
  await intent('review-1');
  await moves(store).attachReferences('review-1', { paymentReference: 'ENG-REVIEW-1' });
  await moves(store).transition('review-1', 'needs_review', {
    payload: { msisdn: customer, amount: 150 },
    review: {
      reason: 'amount_mismatch',
      message: 'The platform says 150 TZS were paid for a 5000 TZS order.',
      evidence: { paid_amount: 150 },
    },
  });
  for (const { record, token } of await store.effects.claim({ leaseMs: 60_000 })) {
    if (record.merchantReference === 'dead-1') {
      await store.effects.fail('dead-1', token, { error: 'orders DB down', retryAt: null });
    } else {
      await store.effects.complete(record.merchantReference, token);
    }
  }
  const claim = {
    status: 'success',
    amount: 5000,
    controlNumber: null,
    externalReference: null,
    transactionId: null,
    merchantReferenceHint: 'review-1',
  } as const;
  for (const paymentReference of ['ENG-REVIEW-1', 'ENG-LOST']) {
    await store.inbox.append({
      dedupKey: `key-${paymentReference}`,
      method: 'POST',
      url: '/callbacks?pesakit_ref=review-1',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ msisdn: customer, reference: paymentReference }),
      claim: { ...claim, paymentReference },
    });
  }
  const [lost] = (await store.inbox.claim({ leaseMs: 60_000, limit: 10 })).filter(
    ({ entry }) => entry.claim.paymentReference === 'ENG-LOST',
  );
  await store.inbox.finish(lost!.entry.id, lost!.token, {
    status: 'dead',
    error: 'Gave up after 8 attempts',
  });
}

/** Merchant references a path cannot carry: `.` and `..` (a browser resolves them away), 128 characters. */
export const oddReferences = { dot: '.', dots: '..', long: `L${'o'.repeat(126)}g` } as const;

/**
 * `.` waits for a person, `..` is paid but its handler gave up (dead effect), and the
 * 128-character one waits for a person with a dead callback for its payment reference.
 */
export async function seedOddReferences(store: ReferenceStore): Promise<void> {
  const { dot, dots, long } = oddReferences;
  for (const reference of [dot, dots, long]) {
    await store.records.create({
      merchantReference: reference,
      product: 'collection',
      flow: 'mno',
      amount: 7000,
      msisdn: customer,
    });
  }
  const review = {
    reason: 'amount_mismatch',
    message: 'The platform says 700 TZS were paid for a 7000 TZS order.',
    evidence: { paid_amount: 700 },
  } as const;
  await moves(store).attachReferences(long, { paymentReference: 'ENG-LONG' });
  for (const reference of [dot, long]) {
    await moves(store).transition(reference, 'needs_review', { payload: { amount: 700 }, review });
  }
  await moves(store).transition(dots, 'success', { payload: { status: 'success' } });
  for (const { record, token } of await store.effects.claim({ leaseMs: 60_000 })) {
    if (record.merchantReference === dots) {
      await store.effects.fail(dots, token, { error: 'orders DB down', retryAt: null });
    } else {
      await store.effects.complete(record.merchantReference, token);
    }
  }
  await store.inbox.append({
    dedupKey: 'key-ENG-LONG',
    method: 'POST',
    url: '/callbacks',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference: 'ENG-LONG' }),
    claim: {
      status: 'success',
      amount: 7000,
      controlNumber: null,
      externalReference: null,
      transactionId: null,
      merchantReferenceHint: long,
      paymentReference: 'ENG-LONG',
    },
  });
  const [claimed] = (await store.inbox.claim({ leaseMs: 60_000, limit: 10 })).filter(
    ({ entry }) => entry.claim.paymentReference === 'ENG-LONG',
  );
  await store.inbox.finish(claimed!.entry.id, claimed!.token, {
    status: 'dead',
    error: 'Gave up after 8 attempts',
  });
}
