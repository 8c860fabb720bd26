import { isAmbiguousOutcomeError } from '../errors/ambiguous-outcome-error.js';
import { isApiError } from '../errors/api-error.js';
import { isConnectionError } from '../errors/connection-error.js';
import { isRateLimitError } from '../errors/rate-limit-error.js';
import { isRequestAbortedError } from '../errors/request-aborted-error.js';
import { isResponseValidationError } from '../errors/response-validation-error.js';
import { isServerError } from '../errors/server-error.js';
import type { Ledger } from '../ledger/ledger.js';
import type { References, TransactionRecord } from '../references/record.js';
import {
  type Contradiction,
  contradictions,
  contradictionVerdict,
  type ReviewVerdict,
} from '../references/review.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import { reasonFromPlatform } from './stored-reason.js';

// The steps every money request shares, single or bulk: the intent is stored before the request
// leaves (`ledger.open`), the request goes once, and then exactly one of the two writes below
// records what came back — the answer, checked against the request, or the failure.

/** What an answer says about the payment's state. */
export type Outcome = { status: TransactionStatus; reason?: string; review?: ReviewVerdict };

/**
 * The answer's outcome once checked against the request: any echoed field that differs
 * (`[asked, answered]`) makes it neither paid nor failed, but a person's to check.
 */
export function checkedOutcome(
  echoes: Record<string, readonly [asked: unknown, answered: unknown]>,
  outcome: () => Outcome,
): { outcome: Outcome; contradicted: Contradiction[] } {
  const contradicted = contradictions(echoes);
  if (contradicted.length === 0) return { outcome: outcome(), contradicted };
  const review = contradictionVerdict(contradicted);
  return { outcome: { status: 'needs_review', reason: review.message, review }, contradicted };
}

/**
 * Records an answer: its references and status in one commit. A record a callback or the
 * reconciler settled while the request was out keeps their outcome (the ledger's rule).
 */
export async function recordAnswer(
  ledger: Ledger,
  merchantReference: string,
  answer: { references: References; outcome: Outcome; payload: unknown },
): Promise<TransactionRecord> {
  const { status, ...details } = answer.outcome;
  const moved = await ledger.move(merchantReference, {
    to: status,
    references: answer.references,
    payload: answer.payload,
    ...details,
  });
  return moved.record;
}

/** Records a failed send: `failed` only when nothing can have been sent, else `unknown`. */
export async function recordFailure(
  ledger: Ledger,
  merchantReference: string,
  error: unknown,
): Promise<{ status: 'unknown' | 'failed'; reason: string }> {
  const [status, reason] = failureOutcome(error);
  const payload = isApiError(error) || isResponseValidationError(error) ? error.body : undefined;
  const redirect =
    isAmbiguousOutcomeError(error) && isApiError(error.cause) ? error.cause : undefined;
  const stored = redirect ? `redirected with ${redirect.status}: outcome unknown` : reason;
  await ledger.move(merchantReference, {
    to: status,
    ...(payload === undefined ? {} : { payload }),
    ...(redirect ? { payload: redirect.body } : {}),
    reason: stored,
  });
  return { status, reason: stored };
}

/**
 * The one rule of "nothing was sent": a definite refusal (4xx, 429), a connection that never
 * opened, or an abort before sending is `failed`; everything else may have moved money.
 */
export function failureOutcome(error: unknown): [status: 'unknown' | 'failed', reason: string] {
  if (isAmbiguousOutcomeError(error)) return ['unknown', 'no response: outcome unknown'];
  if (isResponseValidationError(error)) return ['unknown', 'unreadable success response'];
  if (isServerError(error)) return ['unknown', `platform error ${error.status}`];
  if (isRateLimitError(error)) return ['failed', rateLimitedReason(error.retryAfterMs)];
  if (isApiError(error)) {
    const message = error.platformMessage;
    return [
      'failed',
      message === undefined ? `rejected with ${error.status}` : reasonFromPlatform(message),
    ];
  }
  if (isConnectionError(error)) return ['failed', 'not sent: connection failed'];
  // The transport throws this for a money-moving call only when nothing was sent.
  if (isRequestAbortedError(error)) return ['failed', 'not sent: aborted before sending'];
  // An error we cannot classify (a bug) may still have sent bytes.
  return ['unknown', 'unclassified failure'];
}

/** A 429 is a definite refusal; `rate_limited` lets `onFailed` tell it from a declined payment. */
function rateLimitedReason(retryAfterMs: number | undefined): string {
  const wait =
    retryAfterMs === undefined ? 'after a pause' : `after ${Math.ceil(retryAfterMs / 1000)} s`;
  return `rate_limited: the platform refused the request before processing it (429); nothing moved. Try again ${wait} with a new merchant reference.`;
}
