import { readFileSync } from 'node:fs';
import { defineConfig, transformWithOxc, type Plugin } from 'vite';
import { preactAliases } from './preact-aliases.js';

/**
 * A Content-Security-Policy for the built UI (not the dev server, whose hot reload needs inline scripts): no
 * script but our own bundle, previews only from blob: URLs, uploads to the server or presigned object storage.
 * The UI never renders user content as HTML anyway; this is the second lock.
 */
const csp: Plugin = {
  name: 'stoa-csp',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      injectTo: 'head-prepend',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content:
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; frame-src 'self' blob:; object-src 'self' blob:; connect-src 'self' http: https:; base-uri 'none'; form-action 'self'",
      },
    },
  ],
};

/**
 * The entry (main.tsx) only starts the first load's requests, then imports the app: its chunk and everything it
 * imports are preloaded from index.html, so they download beside the entry instead of after it has run.
 */
const preloadApp: Plugin = {
  name: 'stoa-preload-app',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, ctx) => {
      const bundle = ctx.bundle ?? {};
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const app = chunks.find((c) => c.moduleIds.some((id) => id.endsWith('/src/render-app.tsx')));
      if (!app) return [];
      const files = new Set<string>();
      const visit = (name: string) => {
        if (files.has(name)) return;
        files.add(name);
        const chunk = bundle[name];
        if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(app.fileName);
      return [...files].map((f) => ({ tag: 'link', injectTo: 'head' as const, attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` } }));
    },
  },
};

/**
 * What each module imports statically, recorded while the build parses them, so the chunk groups below can ask
 * for a module's whole static closure.
 */
const imports = new Map<string, readonly string[]>();
const moduleGraph: Plugin = {
  name: 'stoa-module-graph',
  apply: 'build',
  moduleParsed: (info) => void imports.set(info.id, info.importedIds),
};
const closures = new Map<string, Set<string>>();
function closureOf(file: string): Set<string> {
  let seen = closures.get(file);
  if (seen) return seen;
  seen = new Set<string>();
  const root = [...imports.keys()].find((id) => id.endsWith(file));
  const queue = root ? [root] : [];
  for (let id = queue.pop(); id; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(imports.get(id) ?? []));
  }
  closures.set(file, seen);
  return seen;
}

/**
 * One chunk for the app (render-app.tsx and everything it imports statically, less what the entry already holds
 * and the renderer). Left to itself the bundler splits out every small module a lazy page shares with the app (the
 * router, the breadcrumb, the live feed, the strings…): eleven files on the first load instead of four, queued
 * behind the browser's six connections to one host, each a request the server serves while the API calls wait.
 */
const appChunk = (id: string) => closureOf('/src/render-app.tsx').has(id) && !closureOf('/src/main.tsx').has(id);

/**
 * The service worker (src/service-worker.ts) as dist/sw.js, told the build's assets to keep, so an offline reload
 * shows the UI. Its version is a hash of those names: a new release installs a new worker, which drops the old
 * cache.
 */
const serviceWorker: Plugin = {
  name: 'stoa-service-worker',
  apply: 'build',
  async generateBundle(_options, bundle) {
    const assets = Object.keys(bundle)
      .filter((f) => f.startsWith('assets/') && /\.(?:js|css)$/.test(f))
      .sort()
      .map((f) => `/${f}`);
    const version = assets.reduce((h, f) => (Math.imul(h, 31) + [...f].reduce((x, c) => Math.imul(x, 33) ^ c.charCodeAt(0), 5381)) | 0, 0);
    const source = readFileSync(new URL('./src/service-worker.ts', import.meta.url), 'utf8');
    const build = `const STOA_BUILD = ${JSON.stringify({ version: (version >>> 0).toString(36), assets })};\n`;
    const js = await transformWithOxc(source, 'sw.ts', { lang: 'ts' });
    this.emitFile({ type: 'asset', fileName: 'sw.js', source: build + js.code });
  },
};

// The server (apps/server) serves dist/ at "/" and falls back to index.html for client routes.
export default defineConfig({
  plugins: [csp, preloadApp, moduleGraph, serviceWorker],
  resolve: { alias: preactAliases },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // The renderer (Preact, see preact-aliases.ts) in a chunk of its own (preloaded beside the app's): a release
    // that changes only Stoa's code leaves it cached, and the two download in parallel. Libraries of one page (markdown, diff) stay in that page's chunk.
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A group takes only the modules its test names: the app's modules import the entry's (the API
          // client), which must stay in the entry so that it runs without waiting for the app.
          includeDependenciesRecursively: false,
          groups: [
            { name: 'preact', test: /[\\/]node_modules[\\/]preact[\\/]/, priority: 2 },
            { name: 'app', test: appChunk, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
