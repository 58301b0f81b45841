import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      // The zod contracts of the services, imported rather than redeclared.
      '@contracts': fileURLToPath(new URL('../functions/src', import.meta.url)),
    },
  },
  server: { port: 4280, strictPort: true },
  preview: { port: 4280, strictPort: true },
  build: { sourcemap: true, target: 'es2022' },
});
