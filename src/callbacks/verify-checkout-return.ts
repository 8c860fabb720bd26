import type { Pesakit } from '../client.js';
import {
  type CheckoutReturnQuery,
  type CheckoutReturnResult,
  externalReferenceOf,
  settleCheckoutReturn,
} from './checkout-return.js';
import { clientPuller, pullPriority } from './status-puller.js';

/** Verifies a checkout return without a framework (spec rule 10): pulls the status through the
 * client's puller (shared with its receivers), never trusts the query; handlers stay due. */
export async function verifyCheckoutReturn(
  pesakit: Pesakit,
  query: CheckoutReturnQuery,
): Promise<CheckoutReturnResult> {
  const externalReference = externalReferenceOf(query);
  if (externalReference === undefined) return { outcome: 'not_found', changed: false };
  const puller = clientPuller(pesakit);
  const { outcome, record, changed } = await settleCheckoutReturn(
    pesakit.store,
    (reference) => puller.pull(reference, pullPriority.browser),
    externalReference,
  );
  return { outcome, changed, ...(record && { record }) };
}
