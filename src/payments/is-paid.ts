import { sameAmount } from '../schemas/amount.js';

/** The platform's reference fields, the only ones an observation can carry. */
const referenceFields = [
  'controlNumber',
  'paymentReference',
  'externalReference',
  'txnid',
  'refid',
] as const;

type ReferenceFieldName = (typeof referenceFields)[number];

/** What the merchant stored: the amount asked for and the references the platform gave back. */
export type PaidRecord = { amount: number } & {
  [K in ReferenceFieldName]?: string | null | undefined;
};

/**
 * What the platform says happened, from a callback, a status pull or a checkout return:
 * its references, the amount and its status. `status` is successful when it is `'success'`
 * (collection, airtime), `'completed'` (a disbursement) or `true` (the engine callback's flag).
 */
export type PaymentObservation = {
  amount: number;
  status: string | boolean;
} & { [K in ReferenceFieldName]?: string | null | undefined };

/** Why a transaction is not proven paid, so a merchant can log and alert on it. */
export type NotPaidReason =
  | 'no_common_reference'
  | 'reference_mismatch'
  | 'amount_mismatch'
  | 'not_successful';

export type PaidVerdict =
  | { paid: true }
  | { paid: false; reason: NotPaidReason; field?: ReferenceFieldName };

const successfulStatuses: ReadonlyArray<string | boolean> = ['success', 'completed', true];

/**
 * THE rule of "paid" (spec general rule 5: an order is paid only when references match and
 * amount and status are consistent). Callbacks, the checkout return and the reconciler all ask
 * this one function, so they can never disagree:
 *
 * 1. every reference both sides know is equal (`reference_mismatch`, naming the `field`),
 *    and at least one is known to both (`no_common_reference`) — otherwise the observation may
 *    be about another payment;
 * 2. the amount is equal to the cent (`amount_mismatch`) — a partial payment is not payment;
 * 3. the observed status is successful (`not_successful`).
 *
 * @example
 * const verdict = isPaid(record, { controlNumber: '991234', amount: 5000, status: 'success' });
 * if (!verdict.paid) logger.warn({ reason: verdict.reason }, 'not crediting the order');
 */
export function isPaid(record: PaidRecord, observation: PaymentObservation): PaidVerdict {
  let common = 0;
  for (const field of referenceFields) {
    const stored = record[field];
    const observed = observation[field];
    if (stored == null || observed == null) continue;
    if (stored !== observed) return { paid: false, reason: 'reference_mismatch', field };
    common += 1;
  }
  if (common === 0) return { paid: false, reason: 'no_common_reference' };
  if (!sameAmount(record.amount, observation.amount)) {
    return { paid: false, reason: 'amount_mismatch' };
  }
  if (!successfulStatuses.includes(observation.status)) {
    return { paid: false, reason: 'not_successful' };
  }
  return { paid: true };
}
