/**
 * Parity with `oc adm upgrade recommend` on every example of its own test suite (openshift/oc
 * pkg/cli/admin/upgrade/recommend/examples/, copied to server/fixtures/oc-upgrade/recommend/examples/): for each
 * ClusterVersion (and alerts, when the example has them) and each variant oc's test runs (plain,
 * `--show-outdated-releases`, `--version V`), our text equals oc's expected output byte for byte, composed as oc's
 * test composes it (stdout, then `\nerror: <message>\n` when the command fails).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { Alert } from '@/lib/health/update-progress/types';
import type { AlertEvidence } from './alert-prechecks';
import { computeRecommendations } from './recommend';
import { formatRecommend, type RecommendOptions } from './format-recommend';

const DIR = join(process.cwd(), 'server/fixtures/oc-upgrade/recommend/examples');
const CASES = readdirSync(DIR)
  .filter((file) => file.endsWith('-cv.yaml'))
  .map((file) => file.slice(0, -'-cv.yaml'.length))
  .sort();

/** oc's test reads the alerts next to the ClusterVersion, by the relative path it prints. */
function evidenceOf(name: string): AlertEvidence {
  const file = join(DIR, `${name}-alerts.json`);
  if (!existsSync(file)) {
    return {
      kind: 'missing',
      reason: 'NoTestData',
      message: `This --mock-clusterversion run did not have alert data available at examples/${name}-alerts.json`,
    };
  }
  const document = JSON.parse(readFileSync(file, 'utf8')) as {
    data: {
      alerts: {
        labels: Record<string, string>;
        annotations: Record<string, string>;
        state: string;
        activeAt: string;
      }[];
    };
  };
  const alerts: Alert[] = document.data.alerts.map((a) => ({
    name: a.labels.alertname ?? '',
    state: a.state,
    severity: a.labels.severity ?? '',
    startsAt: a.activeAt,
    labels: a.labels,
    annotations: a.annotations ?? {},
  }));
  return { kind: 'alerts', alerts };
}

function clusterVersionOf(name: string): unknown {
  const loaded = yaml.load(readFileSync(join(DIR, `${name}-cv.yaml`), 'utf8')) as { kind?: string; items?: unknown[] };
  return loaded.kind?.endsWith('List') && loaded.items ? loaded.items[0] : loaded;
}

function variants(name: string): [string, RecommendOptions][] {
  const version = readdirSync(DIR)
    .map((f) => new RegExp(`^${name.replaceAll('.', '\\.')}\\.version-(.+)-output$`).exec(f)?.[1])
    .find(Boolean);
  const out: [string, RecommendOptions][] = [
    ['.output', {}],
    ['.show-outdated-releases-output', { showOutdatedReleases: true }],
  ];
  if (version) out.push([`.version-${version}-output`, { version }]);
  return out;
}

describe('oc adm upgrade recommend parity', () => {
  it('covers every example and each has all three variants', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(5);
    for (const name of CASES) expect(variants(name)).toHaveLength(3);
  });

  for (const name of CASES) {
    for (const [suffix, options] of variants(name)) {
      it(`${name}${suffix}`, () => {
        const recommendations = computeRecommendations(clusterVersionOf(name), evidenceOf(name));
        const result = formatRecommend(recommendations, options);
        const printed = result.error === undefined ? result.stdout : `${result.stdout}\nerror: ${result.error}\n`;
        expect(printed).toBe(readFileSync(join(DIR, `${name}${suffix}`), 'utf8'));
      });
    }

    it(`${name}: the JSON says what oc's --show-outdated-releases text says`, () => {
      const json = computeRecommendations(clusterVersionOf(name), evidenceOf(name));
      const text = readFileSync(join(DIR, `${name}.show-outdated-releases-output`), 'utf8');
      const rows = [...text.matchAll(/^ {2}(\d\S*)\s+(.+)$/gm)].map(([, version, issue]) => ({ version, issue }));
      expect(json.updates.map((u) => u.version)).toEqual(rows.map((r) => r.version));
      for (const [i, row] of rows.entries()) {
        const update = json.updates[i];
        if (row.issue === 'no known issues relevant to this cluster')
          expect(update).toMatchObject({ recommended: true, recommendedStatus: 'True' });
        else expect(update).toMatchObject({ recommended: false, reason: row.issue });
        expect(update.image).toMatch(/@sha256:[0-9a-f]{64}$/);
      }
      const channel = /^Channel: (\S+)(?: \(available channels: (.*)\))?$/m.exec(text);
      expect(json.channel).toBe(channel?.[1] ?? null);
      expect(json.availableChannels).toEqual(channel?.[2]?.split(', ') ?? []);
      expect(json.upstream).toBe(/^Upstream update service: (\S+)$/m.exec(text)?.[1] ?? null);
      const failing = /^Failing=(\w+):\n\n {2}Reason: (\S+)/m.exec(text);
      expect(json.clusterConditions.find((c) => c.type === 'Failing')?.status).toBe(failing?.[1] ?? 'False');
      const concerns = /^The following conditions found cause for concern .*: (.*)$/m.exec(text)?.[1].split(', ') ?? [];
      expect(
        json.prechecks
          .filter((p) => p.status !== 'True')
          .map((p) => p.name)
          .sort(),
      ).toEqual(concerns);
      const happy = /^The following conditions found no cause for concern .*: (.*)$/m.exec(text)?.[1].split(', ') ?? [];
      expect(
        json.prechecks
          .filter((p) => p.status === 'True')
          .map((p) => `${p.name} (${p.reason})`)
          .sort(),
      ).toEqual(happy);
    });
  }

  it('a conditional update keeps its risks with their links; Upgradeable=False is injected into minor updates only', () => {
    const json = computeRecommendations(
      clusterVersionOf('4.12.16-longest-not-recommended'),
      evidenceOf('4.12.16-longest-not-recommended'),
    );
    const minor = json.updates.find((u) => u.version === '4.13.50');
    expect(minor?.risks.map((r) => [r.name, r.url])).toEqual([
      ['ARODNSWrongBootSequence', 'https://access.redhat.com/solutions/7074686'],
      [
        'UpgradeableFalse',
        'https://docs.openshift.com/container-platform/4.12/updating/index.html#understanding_clusteroperator_conditiontypes_updating-clusters-overview',
      ],
    ]);
    expect(json.updates.find((u) => u.version === '4.12.64')).toMatchObject({
      recommended: true,
      conditional: false,
      risks: [],
    });
    expect(json.updates.find((u) => u.version === '4.12.51')).toMatchObject({
      recommendedStatus: 'False',
      releaseUrl: 'https://access.redhat.com/errata/RHSA-2024:1052',
    });
  });
});
