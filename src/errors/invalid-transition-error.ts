import { guardFor, PesakitError } from './pesakit-error.js';

/** A status change backwards or out of a final state was refused; the stored status is kept. */
export class InvalidTransitionError extends PesakitError {
  override name = 'InvalidTransitionError' as string;
  override readonly code = 'invalid_transition' as const;
  readonly merchantReference: string;
  readonly from: string;
  readonly to: string;

  /** `details.resolving`: the refused move was a person's resolve. */
  constructor(details: {
    merchantReference: string;
    from: string;
    to: string;
    resolving?: boolean;
  }) {
    const why = details.resolving
      ? `only a needs_review transaction can be resolved, and this one is ${details.from}`
      : details.from === 'success' || details.from === 'failed'
        ? `${details.from} is final and never changes`
        : details.from === 'needs_review'
          ? 'a transaction in needs_review waits for a person: only a resolve (resolveReview, `pesakit review resolve`, the operations page) moves it'
          : `a transaction in ${details.from} cannot become ${details.to}`;
    super(
      `Cannot move ${details.merchantReference} from ${details.from} to ${details.to}: ${why}. ` +
        'The stored status was kept.',
    );
    this.merchantReference = details.merchantReference;
    this.from = details.from;
    this.to = details.to;
  }
}

export const isInvalidTransitionError = guardFor(InvalidTransitionError, 'InvalidTransitionError');
