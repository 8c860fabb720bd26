import type { ReceivedRequest } from '../../src/callbacks/http.js';
import type { ReferenceStore } from '../../src/references/types.js';
import type { CollectionTransaction } from '../../src/schemas/collection.js';
import { moves } from '../helpers/moves.js';
import { merchantCallback } from './payloads.js';

/** The platform's answer to a status pull: by default `991001` / `PR-1`, paid in full. */
export function collectionTransaction(
  overrides: Partial<CollectionTransaction> = {},
): CollectionTransaction {
  return {
    controlNumber: '991001',
    reference: 'PR-1',
    external_reference: null,
    channel: 'mno',
    amount: 15_000,
    msisdn: '255754123456',
    provider: 'vodacom',
    status: 'success',
    transactionID: 'MP1',
    paid_amount: 15_000,
    created_at: '2026-03-01T08:00:00Z',
    updated_at: '2026-03-01T08:00:05Z',
    ...overrides,
  } as CollectionTransaction;
}

/** A collection of 15,000 TZS the platform accepted: pending, with its platform references. */
export async function pendingCollection(
  store: ReferenceStore,
  { merchantReference = 'order-1', controlNumber = '991001', paymentReference = 'PR-1' } = {},
): Promise<void> {
  await store.records.create({
    merchantReference,
    product: 'collection',
    flow: 'mno',
    amount: 15_000,
    msisdn: '255754123456',
  });
  await moves(store).attachReferences(merchantReference, { controlNumber, paymentReference });
  await moves(store).transition(merchantReference, 'pending');
}

/** The control number of a test's `i`-th collection (`order-<i>`, `PR-<i>`). */
export const controlNumberOf = (i: number): string => String(991_000 + i);

/** `count` pending collections, `order-0` on. */
export async function seedPendingCollections(
  store: ReferenceStore,
  count: number,
  from = 0,
): Promise<void> {
  for (let i = from; i < from + count; i += 1) {
    await pendingCollection(store, {
      merchantReference: `order-${i}`,
      controlNumber: controlNumberOf(i),
      paymentReference: `PR-${i}`,
    });
  }
}

/** The status pull of one of the seeded collections, by control number: paid in full. */
export function confirmedPayment(controlNumber: string): CollectionTransaction {
  const i = Number(controlNumber) - 991_000;
  return collectionTransaction({ controlNumber, reference: `PR-${i}`, transactionID: `MP${i}` });
}

/** The platform's success callback for the `i`-th seeded collection, as `receive()` takes it. */
export function seededCallback(i: number): ReceivedRequest {
  return {
    method: 'POST',
    url: '/callback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      merchantCallback({
        paymentReference: `PR-${i}`,
        controlNumber: controlNumberOf(i),
        amount: 15_000,
      }),
    ),
  };
}
