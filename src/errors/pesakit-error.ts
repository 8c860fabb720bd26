/**
 * The root of every error pesakit throws; tell them apart by `code` (docs/errors.md) or the
 * `isXxxError` guards, which work across copies of the package.
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

/** An error class's guard: an instance, or an Error whose `name` is one of `names`. */
export function guardFor<T extends Error>(
  type: abstract new (...args: never[]) => T,
  ...names: string[]
): (error: unknown) => error is T {
  return (error): error is T =>
    error instanceof type || (error instanceof Error && names.includes(error.name));
}
