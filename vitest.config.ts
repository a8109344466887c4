import { defineConfig } from 'vitest/config';
import { preactAliases } from './apps/web/preact-aliases.js';

export default defineConfig({
  // The web UI's unit tests render with Preact, as the built UI does; react-markdown is inlined so that its own
  // `react/jsx-runtime` import is aliased too (one renderer for the test's elements and the library's).
  resolve: { alias: preactAliases },
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    // Acceptance tests run the real binary many times; on a loaded 2-core machine one run can take seconds.
    testTimeout: 300_000,
    hookTimeout: 60_000,
    // What a test waits to see (a browser's next render, a background job's result) may take seconds on a busy
    // machine; a poll still ends as soon as it holds.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // Three test files at a time on two cores: acceptance tests wait on the processes, servers and browsers they
    // start, and a third file fills those waits. Measured on a 2-core machine where a CI run took 1,360 s with two:
    // 1,215 s with three (the main suite 1,106 → 1,034 s); the one failure it showed was a race in a test, fixed.
    maxWorkers: 3,
    server: { deps: { inline: ['react-markdown'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'bench/**/*.test.ts'],
          // Each worker process runs file after file without reloading the modules: loading them afresh for each
          // of the 200-odd files took a fifth of the suite's time. It holds because modules have no import-time
          // side effects and tests leave no global state behind (CONTRIBUTING.md).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // Acceptance and browser tests start servers, browsers and commands of their own and close them in
          // afterAll; like the unit tests, a worker runs file after file without reloading the modules. Loading them
          // afresh for each of the 87 files took 180 s of the workers' time (a tenth of a CI run on a 2-core machine).
          isolate: false,
        },
      },
    ],
  },
});
