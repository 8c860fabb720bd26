import {
  applyCollectionObservation,
  type CollectionSettlement,
} from '../ledger/settle-collection.js';
import { withSource } from '../observability/transitions.js';
import type { TransactionRecord } from '../references/record.js';
import type { ReferenceStore } from '../references/types.js';
import type { CollectionTransaction } from '../schemas/collection.js';
import { pullReferenceOf } from './find-record.js';

export type CheckoutOutcome = 'paid' | 'pending' | 'failed' | 'review' | 'not_found';

export interface CheckoutReturnResult {
  outcome: CheckoutOutcome;
  record?: TransactionRecord;
  changed: boolean;
}

/** The query a browser comes back with. Only `external_reference` is read; nothing is trusted. */
export interface CheckoutReturnQuery {
  external_reference?: string | string[] | null;
  [parameter: string]: unknown;
}

export function outcomeOf(record: TransactionRecord): Exclude<CheckoutOutcome, 'not_found'> {
  if (record.status === 'success') return 'paid';
  if (record.status === 'failed') return 'failed';
  if (record.status === 'needs_review') return 'review';
  return 'pending';
}

export function externalReferenceOf(query: CheckoutReturnQuery): string | undefined {
  const raw = query.external_reference;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= 255 ? trimmed : undefined;
}

/** Spec rule 10: the return proves nothing; the checkout's status is PULLED and `isPaid` decides. */
export async function settleCheckoutReturn(
  store: ReferenceStore,
  pull: (reference: string) => Promise<CollectionTransaction>,
  externalReference: string,
): Promise<CheckoutReturnResult & { settlement?: CollectionSettlement; error?: unknown }> {
  const record = await store.records.find({ field: 'externalReference', value: externalReference });
  if (!record) return { outcome: 'not_found', changed: false };
  if (outcomeOf(record) !== 'pending')
    return { outcome: outcomeOf(record), record, changed: false };
  let transaction: CollectionTransaction;
  try {
    transaction = await pull(pullReferenceOf(record) ?? externalReference);
  } catch (error) {
    // No answer proves nothing: the checkout stays pending, for a callback or the reconciler.
    return { outcome: 'pending', record, changed: false, error };
  }
  const settlement = await withSource('pull', () =>
    applyCollectionObservation(store, record, transaction),
  );
  return {
    outcome: outcomeOf(settlement.record),
    record: settlement.record,
    changed: settlement.changed,
    settlement,
  };
}

/** A checkout return's outcome (spec rule 10): the status pulled with `pull`, never the query;
 * handlers stay due. */
export async function checkoutReturnOutcome(
  store: ReferenceStore,
  pull: (reference: string) => Promise<CollectionTransaction>,
  query: CheckoutReturnQuery,
): Promise<CheckoutReturnResult> {
  const externalReference = externalReferenceOf(query);
  if (externalReference === undefined) return { outcome: 'not_found', changed: false };
  const { outcome, record, changed } = await settleCheckoutReturn(store, pull, externalReference);
  return { outcome, changed, ...(record && { record }) };
}
