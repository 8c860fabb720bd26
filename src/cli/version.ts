import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * pesakit's own version. Resolved through the package's self-reference (`pesakit/package.json`
 * is an export) because this file runs both from src/ and bundled in dist/, at different depths.
 */
export function packageVersion(): string {
  const path = createRequire(import.meta.url).resolve('pesakit/package.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
