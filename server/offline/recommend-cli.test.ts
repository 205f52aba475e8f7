/**
 * `npm run analyze -- <name>-cv.yaml --recommend [...]` prints what `oc adm upgrade recommend --mock-clusterversion`
 * prints, for every example of oc's test suite and every variant (run from the examples' parent directory, so the
 * alerts path oc names is the same), and its `--json` validates against the API schema.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clusterHealthSchema } from '@/lib/api/dto';
import { updateRecommendationsSchema } from '@/lib/api/recommend-dto';

const run = promisify(execFile);
const ROOT = process.cwd();
const CWD = join(ROOT, 'server/fixtures/oc-upgrade/recommend');
const FILES = readdirSync(join(CWD, 'examples'));
const CASES = FILES.filter((f) => f.endsWith('-cv.yaml'))
  .map((f) => f.slice(0, -'-cv.yaml'.length))
  .sort();

async function analyze(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', join(ROOT, 'server/cli/analyze.ts'), ...args],
      { cwd: CWD, maxBuffer: 16 * 1024 * 1024 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function variants(name: string): [string, string[]][] {
  const version = FILES.map((f) =>
    f.startsWith(`${name}.version-`) ? f.slice(`${name}.version-`.length, -'-output'.length) : undefined,
  ).find(Boolean);
  return [
    ['.output', []],
    ['.show-outdated-releases-output', ['--show-outdated-releases']],
    [`.version-${version}-output`, ['--version', version ?? '']],
  ];
}

describe('npm run analyze --recommend', () => {
  for (const name of CASES) {
    it(`${name}: prints oc's text for each variant`, async () => {
      for (const [suffix, flags] of variants(name)) {
        const { code, stdout, stderr } = await analyze(`examples/${name}-cv.yaml`, '--recommend', ...flags);
        const error = /^error: .*\n$/m.exec(stderr)?.[0];
        expect(code, `${name}${suffix}`).toBe(error ? 1 : 0);
        expect(error === undefined ? stdout : `${stdout}\n${error}`, `${name}${suffix}`).toBe(
          readFileSync(join(CWD, 'examples', `${name}${suffix}`), 'utf8'),
        );
      }
    });
  }

  it('--json prints updateRecommendations, valid against the API schema', async () => {
    const { code, stdout } = await analyze('examples/4.16.27-degraded-monitoring-cv.yaml', '--recommend', '--json');
    expect(code).toBe(0);
    const json = updateRecommendationsSchema.parse(JSON.parse(stdout));
    expect(json.prechecks.filter((p) => p.status === 'False').map((p) => p.name)).toEqual([
      'recommended/CriticalAlerts/ClusterOperatorDown/0',
      'recommended/PodDisruptionBudgetAlerts/PodDisruptionBudgetAtLimit/1',
    ]);
    expect(json.updates.map((u) => u.version).slice(0, 2)).toEqual(['4.16.32', '4.16.30']);
  });

  it('plain --json reads the sibling alerts too: updateRecommendations in the health', async () => {
    const { code, stdout } = await analyze('examples/4.16.27-degraded-monitoring-cv.yaml', '--json');
    expect(code).toBe(0);
    const health = clusterHealthSchema.parse(JSON.parse(stdout));
    expect(health.updateRecommendations?.prechecks.map((p) => `${p.name}=${p.status}`)).toContain(
      'recommended/CriticalAlerts/ClusterOperatorDown/0=False',
    );
    expect(health.updateRecommendations?.clusterConditions.find((c) => c.type === 'Failing')).toMatchObject({
      status: 'True',
      reason: 'ClusterOperatorNotAvailable',
    });
  });

  it('reads a must-gather (its monitoring alerts included) and warns on stderr like oc', async () => {
    const { code, stdout, stderr } = await analyze(
      join(ROOT, 'server/fixtures/must-gather/azure-4.8.11'),
      '--recommend',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^The following conditions found no cause for concern in updating this cluster to later releases: recommended\/CriticalAlerts \(AsExpected\)/,
    );
    expect(stdout).toContain('No updates available. You may still upgrade to a specific release image with --to-image');
    expect(stderr).toBe(
      'warning: Cannot refresh available updates:\n  Reason: NoChannel\n  Message: The update channel has not been configured.\n\n',
    );
  });

  it('refuses --version with --show-outdated-releases as oc does (usage, exit 2)', async () => {
    const { code, stderr } = await analyze(
      'examples/4.14.1-all-recommended-cv.yaml',
      '--recommend',
      '--version',
      '4.14.2',
      '--show-outdated-releases',
    );
    expect(code).toBe(2);
    expect(stderr).toContain('when --version is set, --show-outdated-releases is unnecessary');
  });
});
