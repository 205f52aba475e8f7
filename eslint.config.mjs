import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import { SERVER_ROOMS, roomsBelow } from './server/rooms.ts';

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
  // Inside server/, each room imports only the rooms below it (server/rooms.ts); tests may import any room.
  ...Object.keys(SERVER_ROOMS).map((room) => {
    const below = new Set(roomsBelow(room));
    const above = Object.keys(SERVER_ROOMS).filter((other) => other !== room && !below.has(other));
    return {
      files: room === 'env' ? ['server/env.ts'] : [`server/${room}/**/*.{ts,tsx}`],
      ignores: ['**/*.test.{ts,tsx}'],
      rules: restrict(
        ['@/components/*', '@/app/*', ...above.map((other) => `@/server/${other}`)],
        `server/${room} may import only ${[...below].map((other) => `server/${other}`).join(', ') || 'lib/'} ` +
          '(server/rooms.ts): imports run down, never back up.',
      ),
    };
  }),
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
