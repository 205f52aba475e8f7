import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from '@/server/testing/free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway PostgreSQL server for tests: Debian's binaries, a temp data directory, a free loopback port. */
export interface PostgresServer {
  url: string;
  stop(): void;
}

/** Thrown when no PostgreSQL server binaries are installed. */
export class PostgresMissingError extends Error {
  constructor() {
    super('PostgreSQL server binaries not found: install the Debian package "postgresql" (or run .ci/run)');
    this.name = 'PostgresMissingError';
  }
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new PostgresMissingError();
  return join(root, versions[0], 'bin');
}

/**
 * initdb + pg_ctl start in a temp directory. PostgreSQL refuses to run as root, so under root (CI containers) it runs
 * as the `postgres` user the Debian package creates, through runuser.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error?.message}`);
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
