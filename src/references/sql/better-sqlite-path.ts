import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Where better-sqlite3 is, for a thread's `require` (an eval'd worker has no module path of its
 * own). `undefined` when it cannot be resolved from here — a bundle that inlined pesakit — and
 * then the caller does without a thread.
 */
export function betterSqlitePath(): string | undefined {
  try {
    const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
    return createRequire(here).resolve('better-sqlite3');
  } catch {
    return undefined;
  }
}
