import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterHealthSchema } from '@/lib/api/dto';

const run = promisify(execFile);
const MUST_GATHER = join(process.cwd(), 'server/fixtures/must-gather/azure-4.8.11');

/** Runs the CLI as `npm run analyze` does, returning exit code, stdout and stderr. */
async function analyze(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', 'server/cli/analyze.ts', ...args],
      { cwd: process.cwd(), maxBuffer: 64 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'analyze-cli-'));
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe('npm run analyze', () => {
  it('--json prints exactly {cluster, findings, updateProgress, updateState, updateRecommendations, sources}, valid against the API schema', async () => {
    const { code, stdout } = await analyze(MUST_GATHER, '--json');
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual([
      'cluster',
      'findings',
      'sources',
      'updateProgress',
      'updateRecommendations',
      'updateState',
    ]);
    const health = clusterHealthSchema.parse(json);
    expect(health.cluster.version).toBe('4.8.11');
    expect(health.sources.map((source) => source.resource)).toEqual(
      expect.arrayContaining(['clusterversions', 'clusteroperators', 'nodes']),
    );
    expect(new Set(health.sources.map((source) => source.status))).toEqual(new Set(['synced']));
    expect(health.sources[0].since).toBe('2021-09-13T15:34:17.241Z');
  });

  it('prints findings and update progress as text, with --now overriding the clock', async () => {
    const { code, stdout } = await analyze(MUST_GATHER, '--now', '2021-09-14T00:00:00Z');
    expect(code).toBe(0);
    expect(stdout).toContain('Cluster ci-ln-k7vx6h2-002ac-w7gjh: version 4.8.11');
    expect(stdout).toContain('Analyzed as of 2021-09-14T00:00:00.000Z (--now)');
    expect(stdout).toMatch(/Control plane: Completed, 4\.8\.11/);
    expect(stdout).toMatch(/Findings \(\d+\):/);
  });

  it('exits non-zero with a one-line reason when the input cannot be read', async () => {
    const empty = join(temp, 'empty.tar.gz');
    await writeFile(empty, '');
    for (const [args, code, reason] of [
      [[empty], 1, 'empty file'],
      [[join(temp, 'missing')], 1, 'cannot read'],
      [[], 2, 'no input path given'],
      [[MUST_GATHER, '--now', 'yesterday'], 2, 'not an RFC 3339 time'],
    ] as const) {
      const result = await analyze(...args);
      expect(result.code).toBe(code);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toContain(reason);
      if (code === 1) expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
