import { defineConfig, type Options } from 'tsup';

// The runtime dependencies that ship ESM only (`"type": "module"` with no `require` condition),
// and theirs: p-queue's p-timeout, p-retry's is-network-error. `require()` of such a package
// hands back its namespace, so the CJS build bundles them (`noExternal`) and `require('pesakit')`
// gets working classes; the ESM build keeps them as ordinary imports. zod and ulid publish a
// CommonJS build of their own and stay external.
const esmOnly = ['ky', 'p-queue', 'p-timeout', 'p-retry', 'is-network-error'];

const entry = {
  index: 'src/index.ts',
  'sandbox/index': 'src/sandbox/index.ts',
  sqlite: 'src/sqlite.ts',
  postgres: 'src/postgres.ts',
  express: 'src/express.ts',
  fastify: 'src/fastify.ts',
  schemas: 'src/schemas.ts',
  otel: 'src/otel.ts',
  dashboard: 'src/dashboard.ts',
  'testing/index': 'src/testing/index.ts',
};

const builds: Options[] = [
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    // Shared chunks, as in the ESM build: every entry (`pesakit`, `pesakit/sqlite`, …) loads
    // the same module for each class, so an error thrown by a store is `instanceof` the
    // `PesakitError` a merchant imported from the root.
    splitting: true,
    // Split CJS output is converted from esbuild's ESM output, which leaves `import.meta` as
    // is: the shim gives `import.meta.url` its CommonJS meaning (the file's own URL).
    shims: true,
    noExternal: esmOnly,
  },
  {
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
];

// `npm start` and `npm run sandbox` need only the CLI bundle: `tsup --env.PESAKIT_BUILD cli`
// builds just that (about a second, no type declarations). `tsup` alone builds everything.
// `--env.*` rather than an environment variable so that the npm script works in every shell.
export default defineConfig((options) =>
  options.env?.['PESAKIT_BUILD'] === 'cli'
    ? builds.filter((build) => Object.hasOwn(build.entry ?? {}, 'cli/index'))
    : builds,
);
