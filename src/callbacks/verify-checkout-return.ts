import type { Pesakit } from '../client.js';
import {
  type CheckoutReturnQuery,
  type CheckoutReturnResult,
  externalReferenceOf,
  outcomeOf,
} from './checkout-return.js';
import { pullReferenceOf } from './find-record.js';

/**
 * Verifies a secure-checkout browser return without a framework (spec rule 10): never trusts the
 * query string; finds the checkout by `external_reference`, pulls its status from the platform
 * (`collection.status`, which applies the shared `isPaid` rule to the store) and reports where
 * it stands. Handlers (`onPaid`...) are not run here: the transition leaves the effect due, and
 * your callback receiver runs it (`receiver.start()` drains due effects). When the status pull
 * fails (the platform unreachable), the outcome is `pending`: it does not throw for that.
 *
 * @example
 * const { outcome } = await verifyCheckoutReturn(pesakit, req.query);
 * res.redirect(303, outcome === 'paid' ? '/thanks' : '/order-status');
 */
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
    // The platform did not answer (down, timeout, reset): nothing is proven either way, so the
    // checkout stays pending — as the receiver's own return answers — instead of an error page
    // for a customer who may have paid. A callback or the reconciler settles it later.
    return { outcome: 'pending', record, changed: false };
  }
  const after = (await pesakit.store.get(record.merchantReference)) ?? record;
  return { outcome: outcomeOf(after), record: after, changed: after.status !== record.status };
}
