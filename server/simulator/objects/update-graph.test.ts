import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { compareVersions } from '@/lib/k8s/version';
import { describe, expect, it } from 'vitest';
import { GRAPH_OUTPUT_PATH, generateUpdateGraph } from '@/server/cli/generate-update-graph';
import { createSimulatedCluster, runScenario } from '../core';
import { queryMonitoring } from '../monitoring/thanos-querier';
import { SCENARIOS } from '../scenarios/registry';
import { MINUTE } from './time';
import {
  evaluateConditionalUpdate,
  evaluateGraph,
  updateGraphFor,
  type OfferedUpdate,
  type PromqlAnswer,
} from './update-graph';
import type { GraphRisk } from './update-graph-types';

const root = join(import.meta.dirname, '../../..');

function offered(version: string, channel: string): string[] {
  const answer = updateGraphFor(version, channel);
  if (!answer.ok) throw new Error(answer.message);
  return answer.updates.map((u) => u.release.version);
}

function blockedEdgeFile(name: string): { name: string; message: string; url: string; matchingRules: unknown[] } {
  return load(readFileSync(join(root, 'server/fixtures/cincinnati/blocked-edges', name), 'utf8')) as never;
}

describe('update graph data', () => {
  it('is exactly what the generator writes from server/fixtures/cincinnati (npm run generate:update-graph)', () => {
    expect(generateUpdateGraph(root)).toBe(readFileSync(join(root, GRAPH_OUTPUT_PATH), 'utf8'));
  });

  it('orders releases as semantic versions, pre-releases first', () => {
    const sorted = ['4.16.10', '4.16.0-rc.2', '4.16.9', '4.16.0', '4.16.0-ec.1', '4.16.0-rc.10'].sort(compareVersions);
    expect(sorted).toEqual(['4.16.0-ec.1', '4.16.0-rc.2', '4.16.0-rc.10', '4.16.0', '4.16.9', '4.16.10']);
  });
});

describe('the simulated update service', () => {
  it('offers only newer releases of the channel: no older z-streams, no minor the channel does not carry', () => {
    const fromRollback = offered('4.14.27', 'stable-4.14');
    expect(fromRollback).not.toContain('4.14.4');
    expect(fromRollback).not.toContain('4.14.3');
    expect(fromRollback.every((v) => v.startsWith('4.14.') && compareVersions(v, '4.14.27') > 0)).toBe(true);
    expect(fromRollback[0]).toBe('4.14.58');
    // stable-4.16 holds 4.15 and 4.16 releases: a 4.16 cluster sees no 4.17 target there
    expect(offered('4.16.8', 'stable-4.16').some((v) => v.startsWith('4.17.'))).toBe(false);
  });

  it('offers the next minor only from a release its channel lists as a source, never two minors ahead', () => {
    const next = offered('4.16.8', 'stable-4.17');
    expect(next.some((v) => v.startsWith('4.17.'))).toBe(true);
    expect(next.some((v) => v.startsWith('4.18.'))).toBe(false);
    expect(offered('4.15.30', 'stable-4.16')).toContain('4.16.9');
    // EUS: eus-4.16 carries 4.14 → 4.15 (no eus-4.15 channel lists sources), never 4.14 → 4.16 directly
    const eus = offered('4.14.27', 'eus-4.16');
    expect(eus.some((v) => v.startsWith('4.15.'))).toBe(true);
    expect(eus.some((v) => v.startsWith('4.16.'))).toBe(false);
  });

  it('answers VersionNotFound for a version the channel does not carry, NoChannel without a channel', () => {
    expect(updateGraphFor('4.16.8', 'stable-4.15')).toMatchObject({
      ok: false,
      reason: 'VersionNotFound',
      message:
        'Unable to retrieve available updates: currently reconciling cluster version 4.16.8 not found in the ' +
        '"stable-4.15" channel',
    });
    expect(updateGraphFor('4.16.8', '')).toMatchObject({ ok: false, reason: 'NoChannel' });
  });

  it('turns each blocked edge whose from matches into that exact risk', () => {
    const answer = updateGraphFor('4.14.27', 'stable-4.14');
    if (!answer.ok) throw new Error('no answer');
    const byVersion = new Map(answer.updates.map((u) => [u.release.version, u.risks]));
    const libreswan = blockedEdgeFile('4.14.40-OVNlibreswan.yaml');
    const { name, message, url, matchingRules } = libreswan;
    expect(byVersion.get('4.14.40')).toEqual([{ name, message: message.trim(), url, matchingRules }]);
    expect(byVersion.get('4.14.39')).toEqual([]);
    // 4.14.30-ARODNSWrongBootSequence blocks `from: 4[.]13[.].*`: a 4.13 cluster gets it, a 4.14 one does not
    const aro = blockedEdgeFile('4.14.30-ARODNSWrongBootSequence.yaml');
    expect(byVersion.get('4.14.30')?.map((r) => r.name)).toEqual(['OpenStackAvailabilityZoneOutOfRange']);
    const fromMinorBefore = updateGraphFor('4.13.40', 'stable-4.14');
    if (!fromMinorBefore.ok) throw new Error('no answer');
    const aroTarget = fromMinorBefore.updates.find((u) => u.release.version === '4.14.30');
    expect(aroTarget?.risks.map((r) => r.name)).toContain(aro.name);
  });

  it('matches `from` as the update service does: searched in the release name with its architecture suffix', () => {
    // 4.13.17-OVNKubeMasterDSPrestop: `from: 4[.](12[.](…)|13[.]([0-9]|1[0-5]))[+].*` needs the `+amd64` suffix
    const prestop = blockedEdgeFile('4.13.17-OVNKubeMasterDSPrestop.yaml') as unknown as { from: string; name: string };
    const risksFrom = (version: string, channel: string, target: string) => {
      const answer = updateGraphFor(version, channel);
      if (!answer.ok) throw new Error(answer.message);
      return answer.updates.find((u) => u.release.version === target)?.risks.map((r) => r.name) ?? [];
    };
    expect(prestop.from).toContain('[+]');
    expect(risksFrom('4.13.15', 'stable-4.13', '4.13.17')).toContain(prestop.name);
    expect(risksFrom('4.12.40', 'stable-4.13', '4.13.17')).toContain(prestop.name);
  });
});

const ALWAYS: GraphRisk = {
  name: 'AlwaysRisk',
  message: 'Always applies.',
  url: 'https://issues.example/A',
  matchingRules: [{ type: 'Always' }],
};
const PROMQL: GraphRisk = {
  name: 'QueryRisk',
  message: 'Applies when the query says so.',
  url: 'https://issues.example/Q',
  matchingRules: [{ type: 'PromQL', promql: { promql: 'q' } }],
};
const target = (risks: GraphRisk[]): OfferedUpdate => ({
  release: { version: '4.16.9', image: 'i', url: 'u', channels: [] },
  risks,
});
const answering = (answer: PromqlAnswer) => () => answer;
const recommended = (risks: GraphRisk[], answer: PromqlAnswer) =>
  evaluateConditionalUpdate(target(risks), answering(answer), NOW).conditions[0];
const NOW = '2026-11-22T09:00:00Z';

describe('the CVO evaluation of conditional updates', () => {
  it('Always: Recommended=False with the risk name and its message and URL', () => {
    expect(recommended([ALWAYS], { ok: true, values: [] })).toEqual({
      type: 'Recommended',
      status: 'False',
      reason: 'AlwaysRisk',
      message: 'Always applies. https://issues.example/A',
      lastTransitionTime: NOW,
    });
  });

  it('PromQL: 1 applies, 0 does not, anything else is an evaluation failure (Unknown EvaluationFailed)', () => {
    expect(recommended([PROMQL], { ok: true, values: [1] })).toMatchObject({ status: 'False', reason: 'QueryRisk' });
    expect(recommended([PROMQL], { ok: true, values: [0] })).toMatchObject({ status: 'True', reason: 'AsExpected' });
    expect(recommended([PROMQL], { ok: true, values: [] })).toMatchObject({
      status: 'Unknown',
      reason: 'EvaluationFailed',
      message:
        'Exposure to QueryRisk is unknown due to an evaluation failure: invalid PromQL result length must be ' +
        'one, but is 0\nApplies when the query says so. https://issues.example/Q',
    });
    const failed = recommended([PROMQL], { ok: false, error: 'bad_data: nope' });
    expect(failed).toMatchObject({ status: 'Unknown', reason: 'EvaluationFailed' });
    expect(failed.message).toContain('executing PromQL query: bad_data: nope');
  });

  it('a matching risk beside a failed one: False MultipleReasons; the transition time holds with the outcome', () => {
    const both = recommended([ALWAYS, PROMQL], { ok: false, error: 'x' });
    expect(both).toMatchObject({ status: 'False', reason: 'MultipleReasons' });
    const later = evaluateConditionalUpdate(
      target([ALWAYS, PROMQL]),
      answering({ ok: false, error: 'y' }),
      '2026-11-22T10:00:00Z',
      both,
    );
    expect(later.conditions[0].lastTransitionTime).toBe(NOW);
  });

  it('recommended conditional updates are also available updates; unconditional ones only available', () => {
    const updates = [target([]), target([PROMQL]), target([ALWAYS])];
    const graph = evaluateGraph(updates, answering({ ok: true, values: [0] }), NOW);
    expect(graph.availableUpdates).toHaveLength(2);
    expect(graph.conditionalUpdates.map((u) => u.conditions[0].status)).toEqual(['True', 'False']);
  });

  it('evaluates PromQL against the cluster monitoring: a firing alert applies, what it cannot run is Unknown', () => {
    const cluster = createSimulatedCluster({ seed: 3 });
    const t0 = cluster.clock.now();
    runScenario(cluster, SCENARIOS['extension-install-flap']!);
    while (cluster.clock.now() < t0 + 61 * MINUTE) cluster.clock.advance(10_000);
    const query = (promql: string) => queryMonitoring(cluster.proxy, promql);
    const alert = 'ALERTS{alertname="PodDisruptionBudgetAtLimit",alertstate="firing"}';
    const firing: GraphRisk = { ...PROMQL, matchingRules: [{ type: 'PromQL', promql: { promql: alert } }] };
    expect(evaluateConditionalUpdate(target([firing]), query, NOW).conditions[0]).toMatchObject({
      status: 'False',
      reason: 'QueryRisk',
    });

    // the CVO of this 4.18.12 cluster: CrunConflictsWithNVIDIA's PromQL is beyond the simulated querier
    const cv = cluster.client.get('clusterversions', 'version')!;
    type Evaluated = {
      release: { version: string };
      conditions: { status: string; reason: string; message: string }[];
    };
    const status = cv.status as { conditionalUpdates: Evaluated[] };
    const crun = status.conditionalUpdates.find((u) => u.release.version === '4.18.22')!;
    expect(crun.conditions[0]).toMatchObject({ status: 'Unknown', reason: 'EvaluationFailed' });
    expect(crun.conditions[0].message).toMatch(
      /^Exposure to CrunConflictsWithNVIDIA is unknown due to an evaluation failure: executing PromQL query: bad_data: /,
    );
    const runc = status.conditionalUpdates.find((u) => u.release.version === '4.18.29')!;
    expect(runc.conditions[0]).toMatchObject({ status: 'False', reason: 'RuncShareProcessNamespace' });
  });
});
