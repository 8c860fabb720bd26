import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * What a store found itself, not a driver's error: its message says what happened and what to
 * do, in place of "check that the database is reachable", which would invite a retry.
 */
export class StoreFault extends Error {
  override name = 'StoreFault';
}

/**
 * The store's database failed (unreachable, busy, read-only, its file gone) in `operation`
 * (`createIntent`, `get`, `open` …): `cause` is the driver's error, or the store's own finding.
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
      `The reference store failed in ${operation}: ${detail.replace(/(\/\/[^/\s:@]*:)[^@\s]*@/g, '$1***@')}.` +
        (cause instanceof StoreFault
          ? ''
          : ' Check that the database is reachable and writable, then try again (error.cause has the driver’s error).'),
      { cause },
    );
  }
}

export const isStoreError = guardFor(StoreError, 'StoreError');

/** `error` as a StoreError, unless pesakit threw it (a rule, a conflict: already explained). */
export function storeFailure(operation: string, error: unknown): unknown {
  return error instanceof PesakitError ? error : new StoreError(operation, error);
}

type StoreMethod = (...args: unknown[]) => Promise<unknown>;

/**
 * The store boundary, once per class: every async method of `prototype` rethrows a driver's error
 * (SqliteError, pg's, Kysely's) as a StoreError named `<prefix><method>`.
 */
export function guardStoreErrors(prototype: object, prefix = ''): void {
  const methods = prototype as Record<string, StoreMethod>;
  // Descriptors, not values: a getter on the class is never run against the prototype.
  for (const [name, { value }] of Object.entries(Object.getOwnPropertyDescriptors(methods))) {
    if (name === 'constructor' || typeof value !== 'function') continue;
    const method = value as StoreMethod;
    methods[name] = async function (this: unknown, ...args: unknown[]) {
      try {
        return await method.apply(this, args);
      } catch (error) {
        throw storeFailure(`${prefix}${name}`, error);
      }
    };
  }
}
