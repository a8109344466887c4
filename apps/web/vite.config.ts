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

// The server (apps/server) serves dist/ at "/" and falls back to index.html for client routes.
export default defineConfig({
  plugins: [react(), csp],
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
