import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Each example is a project a merchant copies: its own package.json names every package its
// code imports or requires (a shop that imports fastify declares fastify), and says its module
// system, so the copy installs and runs as it is.

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));

/** The package a bare specifier names: `pesakit/express` → `pesakit`, `@a/b/c` → `@a/b`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

function importedPackages(directory: string): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(directory)) {
    if (!/\.(?:[cm]?[jt]s)$/.test(file)) continue;
    const code = readFileSync(join(directory, file), 'utf8');
    const specifiers = [
      ...code.matchAll(/^import\s[^'"]*?from\s+'([^']+)'/gm),
      ...code.matchAll(/require\('([^']+)'\)/g),
    ].map(([, specifier = '']) => specifier);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      if (builtinModules.includes(specifier)) continue;
      names.add(packageOf(specifier));
    }
  }
  return [...names].sort();
}

const directories = readdirSync(examples, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('every example has its own package.json', () => {
  it('there are ES module and CommonJS examples of the shop and the job', () => {
    expect(directories).toEqual(
      expect.arrayContaining([
        'express-merchant',
        'express-merchant-cjs',
        'fastify-merchant',
        'cron-reconciler',
        'cron-reconciler-cjs',
      ]),
    );
  });

  it.each(directories)('%s: names every package it imports, and its module system', (name) => {
    const manifest = JSON.parse(readFileSync(join(examples, name, 'package.json'), 'utf8')) as {
      type: string;
      dependencies: Record<string, string>;
    };
    const files = readdirSync(join(examples, name));
    const commonjs = files.some((file) => file.endsWith('.cjs'));
    expect(manifest.type).toBe(commonjs ? 'commonjs' : 'module');
    const imported = importedPackages(join(examples, name));
    expect(imported).toContain('pesakit');
    const missing = imported.filter((pkg) => !(pkg in manifest.dependencies));
    expect(missing, `${name}/package.json does not declare what the code imports`).toEqual([]);
  });
});
