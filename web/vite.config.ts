import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The dashboard: Preact through the JSX automatic runtime, built into web/dist (served by plugins/web). */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: true,
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.TASKLOOM_URL ?? 'http://127.0.0.1:11345', changeOrigin: false } },
  },
});
