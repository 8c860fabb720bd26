import { sameAmount } from '../schemas/amount.js';

/** Why automation handed a transaction to a person (only `store.resolve()` moves it on). */
export const reviewReasons = [
  /** The platform says success, but for another amount (an under- or overpayment). */
  'amount_mismatch',
  /** The platform says success, but one of the references differs from the stored one. */
  'reference_mismatch',
  /** A callback that matches no stored transaction. */
  'orphan',
  /** The outcome is unknown and there is no platform reference to pull it by. */
  'no_platform_reference',
  /** More than one platform record could be this transaction (e.g. payout history rows). */
  'ambiguous_match',
  /**
   * A payout with no platform reference: no history row matches it exactly, but some agree on
   * the MSISDN or the amount (or carry no MSISDN), so it may have been paid, told differently.
   */
  'history_partial_match',
  /** The evidence neither proves nor disproves the outcome (e.g. an airtime wallet balance). */
  'ambiguous_evidence',
  /** The answer says another amount, MSISDN, reference or inner status than was asked. */
  'answer_contradicts_request',
  /** The reconciler reached its maximum age or number of attempts without a final answer. */
  'max_attempts',
  /**
   * The platform still does not show a transaction of this account past its window (a status
   * 404 past `noReferenceWindowMs`; a payout's refid absent from the history past
   * `settleWindowMs`).
   */
  'not_visible',
] as const;

export type ReviewReason = (typeof reviewReasons)[number];

/** A field where the platform's answer says other than the request: review evidence. */
export type Contradiction = { field: string; asked: unknown; answered: unknown };

/** The fields whose answered value (when the answer carries one) is not the asked one. */
export function contradictions(
  fields: Record<string, readonly [asked: unknown, answered: unknown]>,
): Contradiction[] {
  return Object.entries(fields).flatMap(([field, [asked, answered]]) =>
    answered === undefined ||
    answered === asked ||
    (typeof asked === 'number' && typeof answered === 'number' && sameAmount(asked, answered))
      ? []
      : [{ field, asked, answered }],
  );
}

/** The verdict for an answer that contradicts its request: not paid, for a person to check. */
export function contradictionVerdict(contradicted: Contradiction[]): ReviewVerdict {
  const fields = contradicted.map((c) => c.field).join(', ');
  const message = `The answer says another ${fields} than asked: check before resolving.`;
  const evidence = { contradictions: contradicted };
  return { reason: 'answer_contradicts_request', message, evidence };
}

export interface ReviewVerdict {
  reason: ReviewReason;
  /** One sentence for a person: what was seen, and what to check. */
  message: string;
  /** The answers and payloads that led here, as JSON. */
  evidence?: unknown;
}

export interface Resolution {
  status: 'success' | 'failed';
  note: string;
  by: string | null;
  at: Date;
}
