import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

// Doors (apps/*) reach data only through the core's operations: no query builder, database or blob store.
const storageImports = [
  { name: 'kysely', message: 'Doors do not query the database: add or use an operation in packages/core.' },
  { name: '@stoa/db', message: 'Doors do not touch the database: add or use an operation in packages/core.' },
  { name: '@stoa/blob', message: 'Doors do not touch the blob store: add or use an operation in packages/core.' },
];
// The core's internals (commitVersion, inTx, the file functions) are not in its public entry; its test entry
// re-exports them for tests only, so a door cannot go around the operation runner (issue 26).
const coreInternals = { name: '@stoa/core/testing', message: 'Doors reach the core through its public entry (@stoa/core): run an operation.' };
const queryBuilder = {
  selector: "MemberExpression[property.name='kysely']",
  message: 'Doors do not query the database: add or use an operation in packages/core.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'stoa-data/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    // A pattern that can backtrack super-linearly stalls the one event loop on a crafted input (issue 27).
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'regexp/no-misleading-capturing-group': 'error',
      'regexp/optimal-quantifier-concatenation': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/**/*.ts', 'apps/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...storageImports, coreInternals] }],
      'no-restricted-syntax': ['error', queryBuilder],
    },
  },
  {
    // The CLI dispatches through the core's operation table, never through the server's code.
    // A command names routes by routeIndex: the full contract or core, loaded at start, would build every zod
    // schema before the first request (decision 0011); only local mode (local-api.ts, imported when used) loads them.
    files: ['apps/cli/**/*.ts'],
    ignores: ['apps/cli/src/commands/serve.ts', 'apps/cli/src/commands/mcp.ts', 'apps/cli/src/local-api.ts', 'apps/cli/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...storageImports,
            coreInternals,
            { name: '@stoa/server', message: 'The CLI runs operations through @stoa/core (callOperation), not the server.' },
            {
              name: '@stoa/contract',
              allowTypeImports: true,
              message: 'Name routes by routeIndex (@stoa/contract/route-index); the full contract builds every schema at start.',
            },
            { name: '@stoa/core', allowTypeImports: true, message: 'The core is loaded by local mode only (local-api.ts, imported when used).' },
          ],
          patterns: [{ group: ['@stoa/server/*'], message: 'The CLI runs operations through @stoa/core (callOperation), not the server.' }],
        },
      ],
    },
  },
  {
    // `stoa serve` and `stoa mcp` start the server itself: the only CLI commands that load it.
    files: ['apps/cli/src/commands/serve.ts', 'apps/cli/src/commands/mcp.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [...storageImports, coreInternals] }] },
  },
  {
    // The web UI addresses the server only through the route table (api/client.ts with routeIndex); the table's
    // schemas stay out of the bundle, so only its types and its zod-free modules may be imported.
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/api/client.ts', 'apps/web/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...storageImports,
            {
              name: '@stoa/contract',
              allowTypeImports: true,
              message: 'Import routeIndex from @stoa/contract/route-index; the full contract would bundle zod.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the server through api/client.ts (call, open) with a route of routeIndex.' },
        { name: 'XMLHttpRequest', message: 'Send bodies through api/client.ts (sendWithProgress, routeUrl).' },
      ],
    },
  },
  {
    // Tests may set up fixtures with the database (test database kinds, rows a door cannot create).
    files: ['apps/**/*.test.ts', 'apps/server/src/http/test-app.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
);
