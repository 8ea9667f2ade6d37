import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// base './' so the built site works from any sub-path of a static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
});
