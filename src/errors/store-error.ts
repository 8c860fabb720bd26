import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * The store's database failed (unreachable, busy, read-only) in `operation` (`createIntent`,
 * `get`, `open` …): `cause` is the driver's error.
 */
export class StoreError extends PesakitError {
  override name = 'StoreError' as string;
  override readonly code = 'store_unavailable' as const;

  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    // A connection string in a driver's message keeps its user, never its password.
    const detail = String(cause instanceof Error ? cause.message : cause);
    super(
      `The reference store failed in ${operation}: ${detail.replace(/(\/\/[^/\s:@]*:)[^@\s]*@/g, '$1***@')}. ` +
        'Check that the database is reachable and writable, then try again (error.cause has the driver’s error).',
      { cause },
    );
  }
}

export const isStoreError = guardFor(StoreError, 'StoreError');

/** `error` as a StoreError, unless pesakit threw it (a rule, a conflict: already explained). */
export function storeFailure(operation: string, error: unknown): unknown {
  return error instanceof PesakitError ? error : new StoreError(operation, error);
}
