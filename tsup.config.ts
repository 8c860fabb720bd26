import { defineConfig, type Options } from 'tsup';

// ky, p-retry and p-queue ship ESM only. The CJS build bundles them (`noExternal`) so that
// `require('pesakit')` works at run time; the ESM build keeps them as ordinary imports.
const esmOnly = ['ky', 'p-retry', 'is-network-error'];

const builds: Options[] = [
  {
    entry: {
      index: 'src/index.ts',
      'sandbox/index': 'src/sandbox/index.ts',
      sqlite: 'src/sqlite.ts',
      postgres: 'src/postgres.ts',
      express: 'src/express.ts',
      fastify: 'src/fastify.ts',
    },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
  },
  {
    entry: {
      index: 'src/index.ts',
      'sandbox/index': 'src/sandbox/index.ts',
      sqlite: 'src/sqlite.ts',
      postgres: 'src/postgres.ts',
      express: 'src/express.ts',
      fastify: 'src/fastify.ts',
    },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
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
