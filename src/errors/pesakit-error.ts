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

export const isPesakitError = guardFor(PesakitError, 'PesakitError');

/**
 * The `isXxxError` guard of an error class: an instance of it, or an Error whose `name` is one
 * of `names` (the class's and its subclasses'), so a guard works across copies of the package.
 */
export function guardFor<T extends Error>(
  type: abstract new (...args: never[]) => T,
  ...names: string[]
): (error: unknown) => error is T {
  return (error): error is T =>
    error instanceof type || (error instanceof Error && names.includes(error.name));
}
