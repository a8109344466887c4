import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server (apps/server) serves dist/ at "/" and falls back to index.html for client routes.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
