import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // lib/ is pure and isomorphic: no server code, no UI, no Next.
    files: ['lib/**/*.{ts,tsx}'],
    ignores: ['lib/**/*.test.ts'],
    rules: restrict(
      ['@/server/*', '@/components/*', '@/app/*', 'next', 'next/*', 'react', 'node:*', 'fs', 'http', 'https'],
      'lib/ is pure: it must not import server code, UI code or Node I/O.',
    ),
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: restrict(['@/server/*', '@/app/*'], 'components/ must not import server/ or app/.'),
  },
  {
    files: ['server/**/*.{ts,tsx}'],
    rules: restrict(['@/components/*', '@/app/*'], 'server/ must not import UI code.'),
  },
  {
    // Rooms below the engine: the connection (server/kube), the watch layer and the metric sources never reach up.
    files: ['server/kube/**/*.ts', 'server/watch/**/*.ts', 'server/metrics/**/*.ts', 'server/fleet-sources/**/*.ts'],
    rules: restrict(
      ['@/components/*', '@/app/*', '@/server/engine/*', '@/server/engine'],
      'server/kube, server/watch, server/metrics and server/fleet-sources sit below server/engine: they must not import it.',
    ),
  },
  globalIgnores([
    '.next/**',
    '.next-*/**',
    'out/**',
    'build/**',
    'next-env.d.ts',
    '.pw-browsers/**',
    'test-results/**',
    'playwright-report/**',
    'demo-output/**',
    'data/**',
    'server/fixtures/**',
  ]),
]);
