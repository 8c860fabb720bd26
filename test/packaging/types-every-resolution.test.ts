import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// Every entry point type-checks in a new TypeScript project, whatever its module resolution. A
// CommonJS project with `"module": "commonjs"` and no `moduleResolution` (TypeScript then uses
// `node10`, which never reads `exports`) finds the subpaths only through `typesVersions`; without
// it `pesakit/sqlite` and the others are TS2307 ("There are types at …/dist/sqlite.d.ts, but this
// result could not be resolved"). The package resolves here
// exactly as from node_modules: the project's node_modules/pesakit is this repository (its
// package.json and the built dist/; npm test builds before the suite), nothing installed.

const root = fileURLToPath(new URL('../..', import.meta.url));
const workspace = mkdtempSync(join(tmpdir(), 'pesakit-type-resolution-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const consumer = `
import { Pesakit, MemoryReferenceStore } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { PostgresReferenceStore } from 'pesakit/postgres';
import { pesakitExpress } from 'pesakit/express';
import { pesakitFastify } from 'pesakit/fastify';
import { createSandbox } from 'pesakit/sandbox';
import { engineCallbackSchema } from 'pesakit/schemas';
import { instrumentPesakit } from 'pesakit/otel';
import { createDashboard } from 'pesakit/dashboard';
import { verifyAgainstSandbox, verifyStore, type StoreFactory } from 'pesakit/testing';
const factory: StoreFactory = { open: async ({ now }) => new MemoryReferenceStore({ now }) };
export const used = [Pesakit, MemoryReferenceStore, SqliteReferenceStore, PostgresReferenceStore,
  pesakitExpress, pesakitFastify, createSandbox, engineCallbackSchema, instrumentPesakit,
  createDashboard, verifyStore, factory, verifyAgainstSandbox];
`;

function project(type: 'commonjs' | 'module'): string {
  const directory = join(workspace, type);
  mkdirSync(join(directory, 'node_modules', '@types'), { recursive: true });
  symlinkSync(root, join(directory, 'node_modules', 'pesakit'), 'dir');
  // The peers' own types, as a merchant installs them beside pesakit.
  for (const name of ['node', 'express', 'pg', 'better-sqlite3']) {
    symlinkSync(
      join(root, 'node_modules', '@types', name),
      join(directory, 'node_modules', '@types', name),
      'dir',
    );
  }
  // pesakit/otel's optional peer, installed beside it by a merchant who uses the subpath.
  const otel = join(root, 'node_modules', '@opentelemetry');
  symlinkSync(otel, join(directory, 'node_modules', '@opentelemetry'), 'dir');
  writeFileSync(join(directory, 'package.json'), JSON.stringify({ type }));
  writeFileSync(join(directory, 'consumer.ts'), consumer);
  return directory;
}

const settings = {
  'commonjs, node10 (the default for "module": "commonjs")': {
    type: 'commonjs',
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  },
  'commonjs, node16': {
    type: 'commonjs',
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
  },
  'module, nodenext': {
    type: 'module',
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  },
  'module, bundler': {
    type: 'module',
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  },
} as const;

const projects = { commonjs: project('commonjs'), module: project('module') };

describe('every entry point type-checks in a new TypeScript project', () => {
  // Each case is a whole type-check of the package: CPU-bound, so its time limit is for a hang.
  it.each(Object.entries(settings))(
    '%s',
    (_name, setting) => {
      const directory = projects[setting.type];
      const program = ts.createProgram([join(directory, 'consumer.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        esModuleInterop: true,
        target: ts.ScriptTarget.ES2022,
        module: setting.module,
        moduleResolution: setting.moduleResolution,
        types: ['node'],
        typeRoots: [join(directory, 'node_modules', '@types')],
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      expect(problems).toEqual([]);
    },
    300_000,
  );
});
