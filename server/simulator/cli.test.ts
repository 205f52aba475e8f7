import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSimArgs, UsageError } from './cli-args';
import { SCENARIOS } from './scenarios/registry';

function runCli(args: string[], untilReady = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node_modules/.bin/tsx', ['--conditions=react-server', 'server/simulator/cli.ts', ...args], {
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
  }, 30_000);

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
