import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/**
 * A money-moving request may have reached the platform, but pesakit cannot tell its outcome: no
 * answer came back (a timeout or a reset after the request was sent), the answer was a redirect,
 * or the platform answered and recording that answer failed (the store threw; `answer` holds
 * what the platform said, `cause` the store's error). The money may or may not have moved.
 * pesakit did not retry — the platform has no idempotency key, so a retry could pay twice.
 *
 * Treat the payment as **unknown, not failed**: keep `merchantReference`, and let the reconciler
 * (or a status/list pull) find out what happened before you tell the customer anything.
 */
export class AmbiguousOutcomeError extends PesakitError {
  override name = 'AmbiguousOutcomeError' as string;
  override readonly code = 'ambiguous_outcome' as const;
  readonly method: string;
  readonly path: string;
  /**
   * The reference the store holds the intent under: pass it to `store.get()` or the reconciler.
   * Always set when thrown by a money-moving method of the client; empty only for a raw
   * `Transport.request` call made without `merchantReference`.
   */
  readonly merchantReference: string;
  /** The platform's validated answer, when it answered and only recording it failed. */
  readonly answer: unknown;

  /**
   * `options.reason` replaces "may have reached the platform, but no response came back" when
   * something else made the outcome unknown.
   */
  constructor(
    request: RequestInfo,
    merchantReference: string,
    options?: { cause?: unknown; answer?: unknown; reason?: string },
  ) {
    super(
      `${request.method} ${request.path} ${options?.reason ?? 'may have reached the platform, but no response came back'}. ` +
        'The outcome is unknown: do not resend it. Reconcile ' +
        (merchantReference ? `merchant reference ${merchantReference}` : 'this payment') +
        ' (a status or list pull) to learn whether money moved.',
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.answer = options?.answer;
    this.method = request.method;
    this.path = request.path;
    this.merchantReference = merchantReference;
  }
}

export const isAmbiguousOutcomeError = guardFor(AmbiguousOutcomeError, 'AmbiguousOutcomeError');
