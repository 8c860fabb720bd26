import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * The reference store's database failed (PostgreSQL unreachable, SQLite busy past its timeout or
 * read-only, a pool ended): `cause` has the driver's error. Check the database and try again.
 */
export class StoreError extends PesakitError {
  override name = 'StoreError' as string;
  override readonly code = 'store_unavailable' as const;
  /** The store method that failed: `createIntent`, `get`, `open` … */
  readonly operation: string;

  constructor(operation: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    // A connection string may ride in a driver's message: its password never does here.
    const shown = detail.replace(/\/\/([^/\s:@]*):[^@\s]*@/g, '//$1:[redacted]@');
    super(
      `The reference store failed in ${operation}: ${shown}. Check that the database is ` +
        'reachable and writable, then try again (error.cause has the driver’s error).',
      { cause },
    );
    this.operation = operation;
  }
}

export const isStoreError = guardFor(StoreError, 'StoreError');

/** `error` as a StoreError, unless pesakit threw it (a rule, a conflict: already explained). */
export function storeFailure(operation: string, error: unknown): unknown {
  return error instanceof PesakitError ? error : new StoreError(operation, error);
}
