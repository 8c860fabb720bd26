import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * A status change that would move a transaction backwards, or out of a final state. Usually a
 * late or duplicated signal (an old callback after a pull already settled it): the stored
 * status is kept, and this error says which move was refused.
 */
export class InvalidTransitionError extends PesakitError {
  override name = 'InvalidTransitionError' as string;
  override readonly code = 'invalid_transition' as const;
  readonly merchantReference: string;
  readonly from: string;
  readonly to: string;

  /**
   * `details.resolving`: the refused move was `store.resolve()`, which only leaves
   * `needs_review` — say that rather than a generic "cannot become".
   */
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
          ? 'a transaction in needs_review waits for a person: only store.resolve() moves it'
          : `a ${details.from} transaction cannot become ${details.to}`;
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
