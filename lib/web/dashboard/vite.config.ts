import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard's Vite config (built by ./build.ts). Every asset is a file of this origin: nothing is
 * inlined as a data: URL and no script is inline, so the page runs under `script-src 'self'` and
 * `img-src 'self'` (docs/dashboard.md).
 */
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: {
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
});
