import type { Contradiction } from '../references/review.js';
import type { TransactionRecord } from '../references/types.js';
import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * The platform answered a money-moving call, but the answer contradicts the request (another
 * amount, MSISDN or reference, or an inner status at odds with the outer one). Neither paid nor
 * lost: the record is `needs_review` with the evidence. Do not resend; a person resolves it.
 */
export class AnswerContradictsRequestError extends PesakitError {
  override name = 'AnswerContradictsRequestError' as string;
  override readonly code = 'answer_contradicts_request' as const;
  readonly merchantReference: string;
  /** Each field: what was asked, what was answered. */
  readonly contradictions: readonly Contradiction[];
  /** The platform's validated answer. */
  readonly answer: unknown;
  /** The record as stored: `needs_review` (or what a faster path settled it to). */
  readonly record: TransactionRecord;

  constructor(
    record: TransactionRecord,
    contradictions: readonly Contradiction[],
    answer: unknown,
  ) {
    const fields = contradictions
      .map((c) => `${c.field} ${JSON.stringify(c.answered)} for ${JSON.stringify(c.asked)}`)
      .join(', ');
    super(
      `The platform's answer to ${record.merchantReference} contradicts the request (${fields}). ` +
        'Do not treat it as paid, nor resend it: the record is in needs_review; check the ' +
        "platform's records and resolve it (store.resolve).",
    );
    this.merchantReference = record.merchantReference;
    this.contradictions = contradictions;
    this.answer = answer;
    this.record = record;
  }
}

export const isAnswerContradictsRequestError = guardFor(
  AnswerContradictsRequestError,
  'AnswerContradictsRequestError',
);
