/**
 * Imports between the rooms of server/ run one way (server/rooms.ts). Lint checks `@/server/...` imports file by file;
 * this reads every source file, relative imports and dynamic ones included, and checks the room graph as a whole.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ROOMS, roomsBelow } from './rooms';

const ROOT = resolve(__dirname, '..');
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const TEST = /\.test\.(ts|tsx)$/;

interface SourceFile {
  /** Repository-relative, with `/`. */
  path: string;
  text: string;
}

interface BackImport {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' ? [] : sourceFiles(full);
    if (!SOURCE.test(name) || TEST.test(name)) return [];
    return [{ path: relative(ROOT, full).split('\\').join('/'), text: readFileSync(full, 'utf8') }];
  });
}

/** The room of a repository path under server/ (`server/env.ts` is the room `env`), or undefined outside it. */
function roomOf(path: string): string | undefined {
  const match = /^server\/([^/.]+)(?:\.[a-z]+)?(?:\/|$)/.exec(path);
  return match?.[1];
}

const SPECIFIERS = [
  /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
];

/** Every module a source file names: static, re-exported, side-effect and dynamic imports. */
function specifiers(text: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]));
}

/** The repository path a specifier points into, for `@/` and relative ones. */
function target(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('@/')) return specifier.slice(2);
  if (specifier.startsWith('.'))
    return relative(ROOT, resolve(ROOT, dirname(file), specifier))
      .split('\\')
      .join('/');
  return undefined;
}

/** Imports from one room into a room it may not reach. */
function backImports(files: readonly SourceFile[]): BackImport[] {
  return files.flatMap((file) => {
    const from = roomOf(file.path);
    if (!from) return [];
    const allowed = new Set(roomsBelow(from));
    return specifiers(file.text).flatMap((specifier) => {
      const path = target(file.path, specifier);
      const to = path && roomOf(path);
      return to && to !== from && !allowed.has(to) ? [{ file: file.path, specifier, from, to }] : [];
    });
  });
}

/** A cycle in the room table, as a path `a → b → … → a`, or undefined. */
function roomCycle(rooms: Readonly<Record<string, readonly string[]>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (room: string): string[] | undefined => {
    if (state.get(room) === 'done') return undefined;
    if (state.get(room) === 'open') return [...path.slice(path.indexOf(room)), room];
    state.set(room, 'open');
    path.push(room);
    for (const next of rooms[room] ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(room, 'done');
    return undefined;
  };
  for (const room of Object.keys(rooms)) {
    const cycle = visit(room);
    if (cycle) return cycle;
  }
  return undefined;
}

const describeBack = (found: BackImport[]) =>
  found.map(({ file, specifier, from, to }) => `${file}: imports ${specifier} (${from} → ${to})`);

describe('server rooms', () => {
  it('finds a back-import, a relative one and a dynamic one', () => {
    const planted = backImports([
      { path: 'server/watch/reflector.ts', text: "import type { Fleet } from '@/server/engine/fleet';" },
      { path: 'server/http/sse.ts', text: "import { viewerOf } from '../auth/viewer';" },
      { path: 'server/db/sqlite-database.ts', text: "const { getFleet } = await import('@/server/engine/fleet');" },
      { path: 'server/engine/fleet.ts', text: "import { serverEnv } from '@/server/env';\nimport './readiness';" },
    ]);
    expect(describeBack(planted)).toEqual([
      'server/watch/reflector.ts: imports @/server/engine/fleet (watch → engine)',
      'server/http/sse.ts: imports ../auth/viewer (http → auth)',
      'server/db/sqlite-database.ts: imports @/server/engine/fleet (db → engine)',
    ]);
  });

  it('finds a cycle in a room table', () => {
    expect(roomCycle({ a: ['b'], b: ['c'], c: ['a'] })).toEqual(['a', 'b', 'c', 'a']);
    expect(roomCycle({ a: ['b', 'c'], b: ['c'], c: [] })).toBeUndefined();
  });

  it('has no cycle in its table', () => {
    expect(roomCycle(SERVER_ROOMS)).toBeUndefined();
  });

  it('places every room of server/', () => {
    const rooms = readdirSync(join(ROOT, 'server'))
      .filter((name) => name !== 'fixtures' && statSync(join(ROOT, 'server', name)).isDirectory())
      .concat('env');
    expect(rooms.filter((room) => !(room in SERVER_ROOMS))).toEqual([]);
    for (const below of Object.values(SERVER_ROOMS))
      expect(below.filter((room) => !(room in SERVER_ROOMS))).toEqual([]);
  });

  it('imports only downwards', () => {
    const files = sourceFiles(join(ROOT, 'server'));
    expect(files.length).toBeGreaterThan(100);
    expect(describeBack(backImports(files))).toEqual([]);
  });
});
