import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// base './' so the built site works from any sub-path of a static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  // The worker's dependencies are only discovered at runtime; list its entry so the dev server
  // pre-bundles them up front instead of re-optimizing mid-trace (which 504s the worker import).
  optimizeDeps: { entries: ['index.html', 'src/worker/tracer.worker.ts'] },
  build: { target: 'es2022', sourcemap: true },
});
