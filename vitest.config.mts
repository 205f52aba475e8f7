import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // 'server-only' throws outside the react-server condition; tests run server code directly.
      'server-only': fileURLToPath(new URL('./server/testing/server-only-shim.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    include: ['{lib,server,components,app}/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
