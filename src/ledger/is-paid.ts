import type { PlatformReferenceField as ReferenceFieldName } from '../references/record.js';
import { platformReferenceFields } from '../references/record-changes.js';
import { sameAmount } from '../schemas/amount.js';

/** What the merchant stored: the amount asked for and the references the platform gave back. */
export type PaidRecord = { amount: number } & {
  [K in ReferenceFieldName]?: string | null | undefined;
};

/** What the platform reports; `'success'`, `'completed'` or `true` is successful. */
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

/** THE rule of "paid" (one shared reference, none differing; same cents; successful status). */
export function isPaid(record: PaidRecord, observation: PaymentObservation): PaidVerdict {
  let common = 0;
  for (const field of platformReferenceFields) {
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
