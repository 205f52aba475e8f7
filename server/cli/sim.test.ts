import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSimArgs, UsageError } from '@/server/simulator/cli-args';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';

function runCli(args: string[], untilReady = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node_modules/.bin/tsx', ['--conditions=react-server', 'server/cli/sim.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (untilReady && stdout.includes('ready')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function kubectl(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { timeout: 20_000 }, (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });
}

describe('sim CLI', () => {
  it('rejects bad input with one clear line and exit code 2', async () => {
    const result = await runCli(['--speed', 'fast', '--scenario', 'steady']);
    expect(result.code).toBe(2);
    expect(
      result.stderr
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('error:')),
    ).toHaveLength(1);
    expect(() => parseSimArgs([])).toThrow(UsageError);
    expect(() => parseSimArgs(['--scenario', 'no-such-scenario'])).toThrow(/unknown scenario "no-such-scenario"/);
    expect(() => parseSimArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parseSimArgs(['--fleet', '0'])).toThrow(/--fleet must be a positive integer/);
    expect(parseSimArgs(['--fleet', '3'])).toMatchObject({ fleet: 3, scenarios: Object.keys(SCENARIOS) });
    // A large fleet runs at real time unless asked otherwise: at 10× its API servers stop answering in time.
    expect(parseSimArgs(['--fleet', '3']).speed).toBe(10);
    expect(parseSimArgs(['--fleet', '500']).speed).toBe(1);
    expect(parseSimArgs(['--fleet', '500', '--speed', '5']).speed).toBe(5);
    expect(parseSimArgs(['--all'])).toMatchObject({ http2: true, watchList: true });
    expect(parseSimArgs(['--all', '--no-http2', '--no-watch-list'])).toMatchObject({ http2: false, watchList: false });
    expect(() => parseSimArgs(['--fleet', '3', '--scenario', 'steady', '--dump-must-gather', '/tmp/x'])).toThrow(
      /not --fleet/,
    );
    expect(parseSimArgs(['--fleet', '3', '--hub', '--token-ttl', '60'])).toMatchObject({
      hub: true,
      tokenTtlSeconds: 60,
      memberContexts: false,
    });
    expect(() => parseSimArgs(['--fleet', '3', '--token-ttl', '60'])).toThrow(/only apply with --hub/);
    expect(() => parseSimArgs(['--fleet', '3', '--hub', '--token-ttl', '0'])).toThrow(/--token-ttl must be a positive/);
  }, 30_000);

  it('serves the fleet behind an embedded hub whose kubeconfig holds only the hub context', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-hub-'));
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    const child = spawn(
      'node_modules/.bin/tsx',
      ['--conditions=react-server', 'server/cli/sim.ts', '--hub', '--fleet', '2', '--kubeconfig', kubeconfig],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      for (let i = 0; i < 600 && !stdout.includes('ready'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(stdout).toMatch(/hub=https:\/\/127\.0\.0\.1:\d+ cluster-proxy=https:\/\/127\.0\.0\.1:\d+/);
      const contexts = await kubectl(['--kubeconfig', kubeconfig, 'config', 'get-contexts', '-o', 'name']);
      expect(contexts.stdout.trim()).toBe('hub');
      const clusters = await kubectl(['--kubeconfig', kubeconfig, 'get', 'managedclusters', '-o', 'name']);
      expect(clusters.stdout.trim().split('\n')).toHaveLength(2);
      expect(clusters.stdout).toMatch(/^managedcluster\.cluster\.open-cluster-management\.io\/\S+-0$/m);
    } finally {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('starts a scenario, prints one ready line and stops on SIGTERM', async () => {
    const result = await runCli(
      ['--scenario', 'steady', '--kubeconfig', `/tmp/sim-cli-test-${process.pid}/kubeconfig.yaml`],
      true,
    );
    expect(result.stdout.split('\n').filter((line) => line.includes('ready'))).toHaveLength(1);
    expect(result.stdout).toMatch(/steady=https:\/\/127\.0\.0\.1:\d+/);
    expect(result.code).toBe(0);
    expect(existsSync(`/tmp/sim-cli-test-${process.pid}/kubeconfig.yaml`)).toBe(true);
    rmSync(`/tmp/sim-cli-test-${process.pid}`, { recursive: true, force: true });
  }, 60_000);
});
