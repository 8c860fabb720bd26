/**
 * The deepest nesting a callback body may have. The platform's own bodies are two levels deep
 * (the body, its `data`); 32 leaves room for any extra field a gateway might add.
 *
 * Why a limit at all: a body under `maxBodyBytes` can still be nested thousands of levels deep
 * (64 KiB of `[`), and everything that walks a parsed body by recursion — JSON.parse itself,
 * the dedup key's canonical JSON, zod — then runs out of stack: `receive()` threw a RangeError
 * (an Express/Fastify 500) or answered a misleading "not valid JSON", depending on how much
 * stack the caller had left. A fixed limit makes the answer the same everywhere: 422.
 */
export const MAX_CALLBACK_NESTING = 32;

/**
 * True when `value` has objects or arrays nested more than `max` levels deep. Iterative (an
 * explicit stack), so a hostile body cannot overflow the call stack here; it stops at the first
 * value past the limit, so the work is bounded by `max` levels and the body's size. A cycle (an
 * object a caller built, not JSON) is reported as too deep rather than walked forever.
 */
export function nestedDeeperThan(value: unknown, max: number = MAX_CALLBACK_NESTING): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
