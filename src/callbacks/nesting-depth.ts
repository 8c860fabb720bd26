/** The deepest nesting a callback body may have (the platform's have two); deeper is a 422. */
export const MAX_CALLBACK_NESTING = 32;

/** True past `max` levels; iterative, so a hostile body cannot overflow the stack here. A cycle is too deep. */
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
