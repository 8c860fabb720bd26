import { guardFor, PesakitError } from '../errors/pesakit-error.js';
import type { TransactionRecord } from '../references/record.js';
import type { Contradiction } from '../references/review.js';

/**
 * The platform answered a money-moving call with another amount, MSISDN or reference than asked,
 * or an inner status at odds with the outer one. Neither paid nor lost: the record (its answer in
 * `lastPayload`) is `needs_review`. Do not resend; a person resolves it.
 */
export class AnswerContradictsRequestError extends PesakitError {
  override name = 'AnswerContradictsRequestError' as string;
  override readonly code = 'answer_contradicts_request' as const;
  readonly merchantReference: string;

  constructor(
    readonly record: TransactionRecord,
    readonly contradictions: readonly Contradiction[],
  ) {
    super(
      `The platform's answer to ${record.merchantReference} says another ` +
        `${contradictions.map((c) => c.field).join(', ')} than asked (see \`contradictions\`): ` +
        'do not treat it as paid, nor resend it. It is in needs_review.',
    );
    this.merchantReference = record.merchantReference;
  }
}

export const isAnswerContradictsRequestError = guardFor(
  AnswerContradictsRequestError,
  'AnswerContradictsRequestError',
);
