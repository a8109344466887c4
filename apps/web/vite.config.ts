import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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
      const app = chunks.find((c) => c.facadeModuleId?.endsWith('/src/render-app.tsx'));
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

// The server (apps/server) serves dist/ at "/" and falls back to index.html for client routes.
export default defineConfig({
  plugins: [react(), csp, preloadApp],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // React in a chunk of its own (preloaded beside the app's): a release that changes only Stoa's code leaves it
    // cached, and the two download in parallel. Libraries of one page (markdown, diff) stay in that page's chunk.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
