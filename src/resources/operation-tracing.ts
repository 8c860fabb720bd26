import { isAmbiguousOutcomeError } from '../errors/ambiguous-outcome-error.js';
import { maskedMsisdn } from '../internal/phone-numbers.js';
import {
  type OperationView,
  operationChannel,
  transitionChannel,
} from '../observability/channels.js';
import { type Mutable, traced } from '../observability/traced.js';
import type { TransactionRecord } from '../references/record.js';
import type { Product } from '../schemas/product.js';

/** Calls that read the platform's state of a stored payment: their store writes are pulls. */
const pulls = new Set(['status', 'confirmRecharge']);
/** Returns a lazy PagePromise: each page's request is traced on its own. */
const lazy = new Set(['payments']);

/**
 * `resource` with every public method of its class traced on `pesakit.operation`: one wrap
 * point for money calls and reads alike. The client applies it to each resource it builds; the
 * class and its prototype stay as they are.
 */
export function traceOperations<R extends object>(resource: R, product: Product): R {
  const prototype = Object.getPrototypeOf(resource) as object;
  for (const [name, { value }] of Object.entries(Object.getOwnPropertyDescriptors(prototype))) {
    if (name === 'constructor' || typeof value !== 'function' || lazy.has(name)) continue;
    const method = value as (...args: unknown[]) => Promise<unknown>;
    const operation = `${product}.${name}`;
    const source = pulls.has(name) ? 'pull' : 'answer';
    function tracedMethod(this: unknown, ...args: unknown[]) {
      // Nothing is allocated while nobody listens to the call or the transitions it causes.
      if (!operationChannel.hasSubscribers && !transitionChannel.hasSubscribers) {
        return method.apply(this, args);
      }
      return traced(
        {
          channel: operationChannel,
          source,
          view: () => ({
            operation,
            product,
            merchantReference: undefined,
            outcome: undefined,
            msisdn: undefined,
            errorType: undefined,
          }),
          ended: describe,
        },
        () => method.apply(this, args),
      );
    }
    // Not enumerable, as a method on the class is: the resource prints and spreads the same.
    Object.defineProperty(resource, name, {
      value: tracedMethod,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  return resource;
}

/** The view's last fields, from the record a call returned or its error carries. */
function describe(view: Mutable<OperationView>, result: unknown, error: unknown): void {
  const carried = ((error ?? result) as { record?: unknown } | null | undefined)?.record;
  const record = [carried, result].find(isRecord);
  // A lost answer names its reference (made up, if the caller gave none): outcome `unknown`.
  const lost = isAmbiguousOutcomeError(error) ? error.merchantReference || undefined : undefined;
  view.merchantReference = record?.merchantReference ?? lost;
  view.outcome = record?.status ?? (error === undefined ? undefined : lost ? 'unknown' : 'error');
  view.msisdn = record?.msisdn ? maskedMsisdn(record.msisdn) : undefined;
}

/** A stored record: a money call's `record`, or what `disbursement.status()` returns. */
function isRecord(value: unknown): value is TransactionRecord {
  const candidate = value as Partial<TransactionRecord> | null | undefined;
  return typeof candidate?.merchantReference === 'string' && typeof candidate.status === 'string';
}
