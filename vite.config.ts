import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { contentSecurityPolicy } from './scripts/vite-csp.js';
import { offlineServiceWorker } from './scripts/vite-offline.js';
import { readmeDocs } from './scripts/vite-readme-docs.js';

// base './' so the built site works from any sub-path of a static host. The build also gets a
// CSP meta tag and sw.js (offline after the first load); both are build-only (see scripts/).
export default defineConfig({
  base: './',
  plugins: [react(), contentSecurityPolicy(), offlineServiceWorker(), readmeDocs()],
  worker: { format: 'es' },
  // The worker's dependencies are only discovered at runtime; list its entry so the dev server
  // pre-bundles them up front instead of re-optimizing mid-trace (which 504s the worker import).
  optimizeDeps: { entries: ['index.html', 'src/worker/tracer.worker.ts'] },
  build: { target: 'es2022', sourcemap: true },
});
