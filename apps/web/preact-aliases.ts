/**
 * React's module names resolved to Preact's compatibility layer (decision 0017): the app's source keeps
 * `import … from 'react'` (and @types/react checks it), and so do the libraries it uses (wouter,
 * @tanstack/react-virtual, react-markdown), so one renderer, Preact, is in the bundle. Exact names only: a
 * bare `react` key would also take `react-markdown`'s own imports apart. Shared by the build (vite.config.ts)
 * and the unit tests (the root vitest.config.ts), so a test renders with what ships.
 */
export const preactAliases = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];
