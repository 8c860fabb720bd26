import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
  },
});
