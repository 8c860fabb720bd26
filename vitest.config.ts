import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    setupFiles: ['test/helpers/openapi-contract-setup.ts'],
    // Most files wait on servers, child processes and databases rather than the CPU, so two
    // files run at once even on a 2-core machine (vitest's default there is one).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
  },
});
