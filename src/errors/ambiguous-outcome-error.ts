import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/**
 * A money-moving request may have reached the platform but its outcome is unknown (no answer, a
 * redirect, or the answer could not be recorded). Treat it as **unknown, not failed**: do not
 * resend; reconcile `merchantReference` before telling the customer anything.
 */
export class AmbiguousOutcomeError extends PesakitError {
  override name = 'AmbiguousOutcomeError' as string;
  override readonly code = 'ambiguous_outcome' as const;
  readonly method: string;
  readonly path: string;
  /** The intent's stored reference, for `store.get()` or the reconciler ('' from a raw call). */
  readonly merchantReference: string;
  /** The platform's validated answer, when it answered and only recording it failed. */
  readonly answer: unknown;

  /** `options.reason` replaces the default "no response came back" wording. */
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
