/**
 * The root of every error pesakit throws. Catch this to catch them all; tell them apart by
 * `code` (one stable string per class, listed in docs/errors.md) or with the `isXxxError`
 * guards (which also check `name`, so they work across copies of the package).
 */
export class PesakitError extends Error {
  override name = 'PesakitError' as string;
  /** What kind of error this is: one string per class, never changed once released. */
  readonly code: string = 'pesakit_error';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function isPesakitError(error: unknown): error is PesakitError {
  return error instanceof PesakitError || hasName(error, 'PesakitError');
}

/** True when `error` is an Error whose `name` is one of `names` (a guard across realms). */
export function hasName(error: unknown, ...names: string[]): boolean {
  return error instanceof Error && names.includes(error.name);
}
