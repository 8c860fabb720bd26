import { AssertionError, deepStrictEqual } from 'node:assert/strict';
import { inspect } from 'node:util';

/**
 * The kit's few assertions, on `node:assert/strict` so that it runs under any test runner (or
 * none). Records are compared as plain data: a store may build them with any prototype and
 * leave an optional key out or set it to `undefined`, as a merchant's own code would.
 */

/** What `promise` rejects with; an AssertionError when it resolves instead. */
export async function rejection(promise: Promise<unknown>, call = 'the call'): Promise<unknown> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return error;
  }
  throw new AssertionError({
    message: `expected ${call} to fail, but it resolved to ${show(value)}`,
  });
}

/** Deep equality of data (Dates by instant, `undefined` keys ignored). */
export function equal(actual: unknown, expected: unknown, message?: string): void {
  deepStrictEqual(plain(actual), plain(expected), message);
}

/** `actual` has at least `expected`'s keys, each equal in turn (arrays whole, element-wise). */
export function matches(actual: unknown, expected: unknown, message?: string): void {
  const mismatch = firstMismatch(plain(actual), plain(expected), '');
  if (mismatch === undefined) return;
  throw new AssertionError({
    message: `${message ? `${message}: ` : ''}${mismatch}\n  got ${show(actual)}`,
  });
}

export function truthy(value: unknown, message: string): asserts value {
  if (!value) throw new AssertionError({ message });
}

/** `error` passes `guard` (an `isXxxError` of pesakit's); the message names what came instead. */
export function isError(error: unknown, guard: (value: unknown) => boolean, name: string): void {
  if (guard(error)) return;
  throw new AssertionError({ message: `expected a ${name}, got ${show(error)}` });
}

/** The error's message matches `pattern` (a string is looked for as is). */
export function messageMatches(error: unknown, pattern: RegExp | string): void {
  const message = error instanceof Error ? error.message : String(error);
  const found = typeof pattern === 'string' ? message.includes(pattern) : pattern.test(message);
  if (!found) {
    throw new AssertionError({
      message: `expected the error's message to match ${String(pattern)}, got ${JSON.stringify(message)}`,
    });
  }
}

export function show(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return inspect(value, { depth: 4, breakLength: Number.POSITIVE_INFINITY });
}

function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Error) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== undefined) copy[key] = plain(inner);
  }
  return copy;
}

function firstMismatch(actual: unknown, expected: unknown, path: string): string | undefined {
  const at = path === '' ? 'the value' : path;
  if (expected === null || typeof expected !== 'object' || expected instanceof Date) {
    try {
      deepStrictEqual(actual, expected);
      return undefined;
    } catch {
      return `${at} is ${show(actual)}, expected ${show(expected)}`;
    }
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${at} is ${show(actual)}, expected ${show(expected)}`;
    }
    for (const [index, item] of expected.entries()) {
      const inner = firstMismatch(actual[index], item, `${path}[${index}]`);
      if (inner) return inner;
    }
    return undefined;
  }
  if (actual === null || typeof actual !== 'object') {
    return `${at} is ${show(actual)}, expected an object like ${show(expected)}`;
  }
  for (const [key, item] of Object.entries(expected)) {
    const inner = firstMismatch(
      (actual as Record<string, unknown>)[key],
      item,
      path === '' ? key : `${path}.${key}`,
    );
    if (inner) return inner;
  }
  return undefined;
}
