import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'e2e/**/*.test.ts', 'bench/*.test.ts'],
    // Acceptance tests run the real binary many times; on a loaded 2-core machine one run can take seconds.
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
