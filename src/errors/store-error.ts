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
 * (`records.create`, `inbox.claim`, `open` …): `cause` is the driver's error, or the store's
 * own finding.
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

/**
 * The store boundary, once per part: a copy of `part` whose every method rethrows a driver's error
 * (SqliteError, pg's, Kysely's) as a StoreError named `<name>.<method>`. Methods come from the
 * part and its class; the part itself is left as it is.
 */
export function guardPart<Part extends object>(name: string, part: Part): Part {
  const guarded: Record<string, unknown> = {};
  for (let from: object | null = part; from && from !== Object.prototype; ) {
    for (const [method, { value }] of Object.entries(Object.getOwnPropertyDescriptors(from))) {
      if (method === 'constructor' || typeof value !== 'function' || method in guarded) continue;
      const call = value as (...args: unknown[]) => unknown;
      guarded[method] = async (...args: unknown[]) => {
        try {
          return await call.apply(part, args);
        } catch (error) {
          throw storeFailure(`${name}.${method}`, error);
        }
      };
    }
    from = Object.getPrototypeOf(from) as object | null;
  }
  return guarded as Part;
}
