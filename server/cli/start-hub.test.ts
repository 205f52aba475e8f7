import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

describe('npm start -- --hub', () => {
  it('runs the embedded fleet behind the embedded hub and hands the dashboard the hub context only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-hub-'));
    const port = 20_000 + (process.pid % 20_000);
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', 'server/cli/start.ts', '--no-build', '--hub', '--fleet', '2'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, UPDATE_HEALTH_AUTH: '', UPDATE_HEALTH_DATA_DIR: dataDir, PORT: String(port) },
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      for (let i = 0; i < 600 && !out.includes('embedded ACM hub'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(/embedded ACM hub https:\/\/127\.0\.0\.1:\d+, cluster-proxy https:\/\/127\.0\.0\.1:\d+/);
      const path = join(dataDir, `embedded-${port}`, 'hub-kubeconfig.yaml');
      expect(existsSync(path)).toBe(true);
      const kubeconfig = load(readFileSync(path, 'utf8')) as { contexts: { name: string }[] };
      expect(kubeconfig.contexts.map((context) => context.name)).toEqual(['hub']);
      expect(existsSync(join(dataDir, `embedded-${port}`, 'hub-admin-kubeconfig.yaml'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
