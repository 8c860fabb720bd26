import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** pesakit's version, through the self-reference (this file runs from src/ and from dist/). */
export function packageVersion(): string {
  const path = createRequire(import.meta.url).resolve('pesakit/package.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
