// The Studio console's build: React through Vite, served by channelnet at /studio (see
// src/http/console.ts). `npm run dev:console` serves it with hot reload and proxies the APIs to
// a channelnet on :8080.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/studio/',
  plugins: [react()],
  build: { outDir: '../dist/studio', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/assets': 'http://127.0.0.1:8080' } },
});
