import { defineConfig } from 'vite';

export default defineConfig({
  // tracelab's worker loads its decoders and writers with import(): module workers split them.
  worker: { format: 'es' },
  // Keep the package out of dev pre-bundling, so `new URL('./worker.js', import.meta.url)` resolves.
  optimizeDeps: { exclude: ['tracelab'] },
});
