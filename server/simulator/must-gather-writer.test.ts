import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { readOffline } from '@/server/offline/read-offline';
import { parseDuration, parseSimArgs, UsageError } from './cli-args';
import { DumpTargetError, dumpScenario } from './must-gather-writer';
import { SCENARIOS } from './scenarios/registry';

const root = mkdtempSync(join(tmpdir(), 'mg-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node_modules/.bin/tsx', ['--conditions=react-server', 'server/cli/sim.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('must-gather writer', () => {
  it('writes the standard layout that the offline reader reads back completely', async () => {
    const dir = join(root, 'rollback');
    const written = await dumpScenario(SCENARIOS['cross-minor-rollback']!, { dir, atMs: 15 * 60_000 });
    expect(readdirSync(dir)).toEqual([written.root.split('/').at(-1)]);
    expect(written.root).toMatch(/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-[0-9a-f]{64}$/);
    expect(readFileSync(join(written.root, 'timestamp'), 'utf8')).toMatch(
      /^2026-11-22 09:15:00\.000000000 \+0000 UTC m=\+/,
    );
    const cv = load(
      readFileSync(
        join(written.root, 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml'),
        'utf8',
      ),
    );
    expect(cv).toMatchObject({ kind: 'ClusterVersion', metadata: { name: 'version' } });
    expect(readdirSync(join(written.root, 'cluster-scoped-resources/core/nodes')).length).toBeGreaterThan(0);
    const ns = 'namespaces/openshift-cluster-version';
    expect(existsSync(join(written.root, ns, 'openshift-cluster-version.yaml'))).toBe(true);
    expect(load(readFileSync(join(written.root, ns, 'core/pods.yaml'), 'utf8'))).toMatchObject({
      kind: 'PodList',
      apiVersion: 'v1',
    });
    const [pod] = readdirSync(join(written.root, ns, 'pods'));
    expect(existsSync(join(written.root, ns, 'pods', pod, `${pod}.yaml`))).toBe(true);
    const log = readFileSync(
      join(written.root, ns, 'pods', pod, 'cluster-version-operator/cluster-version-operator/logs/current.log'),
      'utf8',
    );
    expect(log).toMatch(/ClusterVersion\.config\.openshift\.io "version" is invalid/);

    const offline = await readOffline([dir]);
    expect(offline.nowSource).toBe('timestamp');
    expect(offline.now).toBe(written.at);
    // Everything is read back except the objects of name-narrowed resources the detectors do not read (CRDs
    // other than ClusterVersion's).
    const crds = readdirSync(
      join(written.root, 'cluster-scoped-resources/apiextensions.k8s.io/customresourcedefinitions'),
    );
    expect(crds).toContain('clusterversions.config.openshift.io.yaml');
    expect(offline.stats.objects).toBe(written.objects - (crds.length - 1));
    expect(offline.warnings).toEqual([]);
  });

  it('refuses a target that exists and is not empty', async () => {
    const dir = join(root, 'busy');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'x');
    await expect(dumpScenario(SCENARIOS.steady!, { dir })).rejects.toThrow(DumpTargetError);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });

  it('parses --dump-must-gather and --at', () => {
    expect(parseDuration('45m')).toBe(45 * 60_000);
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(() => parseDuration('45')).toThrow(UsageError);
    expect(() => parseDuration('m')).toThrow(UsageError);
    const args = parseSimArgs(['--scenario', 'steady', '--dump-must-gather', join(root, 'new'), '--at', '2m']);
    expect(args).toMatchObject({ dumpMustGather: join(root, 'new'), atMs: 120_000 });
    expect(() => parseSimArgs(['--scenario', 'steady', '--at', '2m'])).toThrow(
      /--at only applies with --dump-must-gather/,
    );
    expect(() => parseSimArgs(['--all', '--dump-must-gather', join(root, 'x')])).toThrow(/exactly one --scenario/);
  });

  it('npm run sim -- --dump-must-gather writes and exits 0; bad targets exit 2 with one line', async () => {
    const dir = join(root, 'cli');
    const ok = await runCli(['--scenario', 'steady', '--dump-must-gather', dir, '--at', '5m']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/must-gather written: .*steady at 2026-11-22T09:05:00\.000Z/);
    const busy = await runCli(['--scenario', 'steady', '--dump-must-gather', dir]);
    expect(busy.code).toBe(2);
    expect(busy.stderr.trim()).toMatch(/^error: --dump-must-gather: .* is not empty$/);
    const bad = await runCli(['--scenario', 'steady', '--dump-must-gather', join(root, 'other'), '--at', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('error: --at must be a duration like 45m, 90s or 1h30m, got "soon"');
  }, 60_000);
});
