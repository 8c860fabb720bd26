import type { Pesakit } from '../client.js';
import {
  type CheckoutReturnQuery,
  type CheckoutReturnResult,
  externalReferenceOf,
  outcomeOf,
} from './checkout-return.js';
import { pullReferenceOf } from './find-record.js';

/** Verifies a checkout return without a framework (spec rule 10): pulls the status, never trusts
 * the query; handlers stay due for the receiver. */
export async function verifyCheckoutReturn(
  pesakit: Pesakit,
  query: CheckoutReturnQuery,
): Promise<CheckoutReturnResult> {
  const externalReference = externalReferenceOf(query);
  if (externalReference === undefined) return { outcome: 'not_found', changed: false };
  const record = await pesakit.store.find({ field: 'externalReference', value: externalReference });
  if (!record) return { outcome: 'not_found', changed: false };
  if (outcomeOf(record) !== 'pending')
    return { outcome: outcomeOf(record), record, changed: false };
  try {
    await pesakit.collection.status(pullReferenceOf(record) ?? externalReference);
  } catch {
    // No answer proves nothing: the checkout stays pending, for a callback or the reconciler to settle.
    return { outcome: 'pending', record, changed: false };
  }
  const after = (await pesakit.store.get(record.merchantReference)) ?? record;
  return { outcome: outcomeOf(after), record: after, changed: after.status !== record.status };
}
