#!/usr/bin/env node
// Compiles the `stoa` command (CLI, server, core and every workspace package it uses) ahead of time into
// apps/cli/dist with esbuild, so nothing is compiled at run time. node_modules stay external; the parser worker
// and the database migrations are entries of their own because they are loaded by path at run time.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'apps/cli/dist');
const migrations = {};
for (const dialect of ['sqlite', 'pg']) {
  const dir = join(root, 'packages/db/src/migrations', dialect);
  for (const f of readdirSync(dir).filter((n) => /^\d{3}_[a-z0-9_]+\.ts$/.test(n))) {
    migrations[`migrations/${dialect}/${f.replace(/\.ts$/, '')}`] = join(dir, f);
  }
}

/**
 * Bundled in as well: pure-JavaScript libraries made of many small modules, which Node would otherwise resolve and
 * load one file at a time on every start (kysely alone costs about 0.2 s that way).
 */
const BUNDLED = [
  'kysely',
  'zod',
  '@modelcontextprotocol/sdk',
  'ajv',
  'ajv-formats',
  'fast-deep-equal',
  'fast-uri',
  'json-schema-traverse',
  'zod-to-json-schema',
  'commander',
  'diff',
  'picomatch',
  'isbinaryfile',
  'mime-types',
  'mime-db',
  '@orama/stemmers',
];

/** Workspace packages (@stoa/*), relative imports and BUNDLED are bundled; every other bare import stays a dependency. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'probe' || args.path.startsWith('@stoa/') || args.kind === 'entry-point') return undefined;
      if (BUNDLED.some((m) => args.path === m || args.path.startsWith(`${m}/`))) return undefined;
      // A dependency installed inside one workspace (apps/server/node_modules/…, another version than the root's)
      // cannot be found from apps/cli/dist at run time: bundle it in.
      const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'probe' });
      if (/[\\/](apps|packages)[\\/][^\\/]+[\\/]node_modules[\\/]/.test(found.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * zod ships messages in 40+ languages (a third of its size) and loads them all with its namespace; Stoa's
 * messages are its own (translated in the web UI from stable codes), so only the default English set is built in.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: "export { default as en } from './en.js';", loader: 'js' }));
  },
};

const started = performance.now();
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: {
    stoa: join(root, 'apps/cli/src/main.ts'),
    'parse-worker': join(root, 'packages/core/src/understanding/parse-worker.ts'),
    ...migrations,
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Whitespace and syntax minified, names kept (stack traces and profiles still read): a start parses less —
  // `stoa.js` 216 → 129 KB, `stoa files ls` in local mode 5–11 % faster on a 2-core machine (bench/README.md, "A
  // slower machine, and the bundle minified"); every `stoa` command and every acceptance test that runs one gains.
  minifyWhitespace: true,
  minifySyntax: true,
  // Chunks sit beside the entries: code that finds files relative to its own module (migrations, the parser
  // worker, the web assets) resolves the same from any chunk.
  chunkNames: '[name]-[hash]',
  plugins: [externalDependencies, zodEnglishOnly],
  // Bundled CommonJS (commander) calls require() for Node's own modules; an ES module has none unless given one.
  banner: { js: "import { createRequire as __stoaCreateRequire } from 'node:module'; const require = __stoaCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
if (!process.argv.includes('--quiet')) console.log(`built apps/cli/dist in ${Math.round(performance.now() - started)} ms`);
