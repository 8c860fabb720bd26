import type { InboxAppend } from '../references/inbox/types.js';
import type { ReviewVerdict } from '../references/review.js';
import type { TransactionIntent, TransitionDetails } from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import type { StoreCalls } from './store-calls.js';

/** A mobile collection of 5,000 TZS from a Vodacom number, unless `extra` says otherwise. */
export function intent(
  merchantReference: string,
  extra: Partial<TransactionIntent> = {},
): TransactionIntent {
  return {
    merchantReference,
    product: 'collection',
    flow: 'mno',
    amount: 5000,
    msisdn: '255754123456',
    ...extra,
  };
}

/** A payout holding `held` TZS of the payouts account's float. */
export function payout(reference: string, amount: number, held: number): TransactionIntent {
  return {
    merchantReference: reference,
    product: 'disbursement',
    flow: 'disbursement',
    amount,
    msisdn: '255754123456',
    reservation: { account: 'payouts@duka.co.tz', amount: held },
  };
}

export const underpaid: ReviewVerdict = {
  reason: 'amount_mismatch',
  message: 'The platform says 150 TZS were paid for a 5000 TZS order.',
  evidence: { paid_amount: 150, nested: { when: '2025-03-01 08:00:00' } },
};

/** Transition details every move accepts: a move to needs_review must say why. */
export function details(to: TransactionStatus, reason: string): TransitionDetails {
  return to === 'needs_review' ? { reason, review: underpaid } : { reason };
}

/** A record in `status`: any status is reachable from `initiating` in at most one step. */
export async function recordIn(store: StoreCalls, reference: string, status: TransactionStatus) {
  await store.records.create(intent(reference));
  if (status !== 'initiating') await store.transition(reference, status, details(status, 'set up'));
  const record = await store.records.get(reference);
  if (record === undefined)
    throw new Error(`store.get('${reference}') found nothing after writing it`);
  return record;
}

/** A collection paid: pending, then success (its effect due). */
export async function paid(store: StoreCalls, reference: string) {
  await store.records.create(intent(reference));
  await store.transition(reference, 'pending');
  return (await store.transition(reference, 'success', { reason: 'confirmed by pull' })).record;
}

/** The merchant references of leased records, in the order leased. */
export const merchantReferences = (leased: { record: { merchantReference: string } }[]) =>
  leased.map((lease) => lease.record.merchantReference);

/** `count` pending collections, `order-000` up. */
/**
 * A counted check of `reference` at `at`, as the reconciler counts one: a forced lease and a
 * counted release; every other record the lease took is handed back uncounted.
 */
export async function checkAt(store: StoreCalls, reference: string, at: Date): Promise<void> {
  const leased = await store.schedule.lease({ limit: 10_000, leaseMs: 60_000, force: true });
  for (const { record, token } of leased) {
    const counted = record.merchantReference === reference;
    await store.schedule.release(record.merchantReference, token, {
      nextCheckAt: at,
      checkedAt: at,
      counted,
    });
  }
}

export async function openRecords(store: StoreCalls, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const reference = `order-${String(index).padStart(3, '0')}`;
    await store.records.create(intent(reference));
    await store.transition(reference, 'pending');
  }
}

/** A callback as the receiver appends it to the inbox. */
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
