import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * A reference would overwrite a different known value or another record's: two payments may be
 * mixed up, so a person should look before money is credited.
 */
export class ReferenceConflictError extends PesakitError {
  override name = 'ReferenceConflictError' as string;
  override readonly code = 'reference_conflict' as const;
  readonly merchantReference: string;
  readonly field: string;
  readonly existing: string | undefined;
  readonly attempted: string;

  constructor(details: {
    merchantReference: string;
    field: string;
    existing: string | undefined;
    attempted: string;
    ownedBy?: string;
  }) {
    const reason = details.ownedBy
      ? `${details.field} ${details.attempted} already belongs to ${details.ownedBy}`
      : `it already has ${details.field} ${details.existing}`;
    super(
      `Cannot attach ${details.field} ${details.attempted} to ${details.merchantReference}: ${reason}. ` +
        'References never change once known; check which payment this belongs to.',
    );
    this.merchantReference = details.merchantReference;
    this.field = details.field;
    this.existing = details.existing;
    this.attempted = details.attempted;
  }
}

export const isReferenceConflictError = guardFor(ReferenceConflictError, 'ReferenceConflictError');
