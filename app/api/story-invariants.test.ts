/**
 * The truth invariants of ARCHITECTURE.md, checked over the whole timeline of every simulated story, hosted clusters
 * included: each story runs on its own embedded API server, watched by the real engine, and at many moments the
 * fleet list, each cluster's health and its rollback plans are read through the API routes as a browser would.
 */
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterHealthSchema, clusterListSchema, type ClusterHealthDto, type ClusterSummaryDto } from '@/lib/api/dto';
import { rollbackPlanSchema, type RollbackPlanDto } from '@/lib/api/rollback-dto';
import { updateStateOfHealth } from '@/lib/cluster/update-state';
import { transientLabel } from '@/lib/health/detectors/install-settling/condition-streaks';
import { UPSTREAM_OLMV1_NAMESPACE, runsOlmv1 } from '@/lib/health/shared/olmv1-presence';
import { defaultTarget, predictionsFor, updateCommand, UPGRADEABLE_FALSE_RISK } from '@/lib/recommend/update-command';
import { compareVersions } from '@/lib/k8s/version';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { Fleet } from '@/server/engine/fleet';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { DEFAULT_START_TIME, runScenario } from '@/server/simulator/core';
import { CHANNELS } from '@/server/simulator/objects/update-graph.generated';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ScenarioName } from '@/server/simulator/types';
import { GET as getRollbackPlan } from './clusters/[id]/rollback-plan/route';
import { GET as getHealth } from './clusters/[id]/health/route';
import { GET as getClusters } from './clusters/route';
import { sourceUpToDate } from '@/lib/health/tiers';

const MINUTE = 60_000;
/** Each story is followed for two hours of its time (every story reaches its outcome by then), looked at every 8 min. */
const STORY_MS = 120 * MINUTE;
const LOOK_EVERY_MS = 8 * MINUTE;

const holder = globalThis as unknown as { __updateHealthFleet?: Fleet };
let server: TestServer | undefined;

afterEach(async () => {
  holder.__updateHealthFleet?.stop();
  delete holder.__updateHealthFleet;
  await server?.close();
  server = undefined;
});

const local = { [VIEWER_HEADER]: encodeViewer({ kind: 'local' }) };
const request = (path: string) => new NextRequest(`http://localhost${path}`, { headers: local });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

async function rows(): Promise<ClusterSummaryDto[]> {
  return clusterListSchema.parse(await (await getClusters(request('/api/clusters'))).json()).clusters;
}

async function healthOf(id: string): Promise<ClusterHealthDto> {
  const response = await getHealth(request(`/api/clusters/${encodeURIComponent(id)}/health`), ctx(id));
  expect(response.status).toBe(200);
  return clusterHealthSchema.parse(await response.json());
}

async function planOf(id: string, to: string): Promise<RollbackPlanDto | undefined> {
  const response = await getRollbackPlan(
    request(`/api/clusters/${encodeURIComponent(id)}/rollback-plan?to=${to}`),
    ctx(id),
  );
  return response.status === 200 ? rollbackPlanSchema.parse(await response.json()) : undefined;
}

const timeOf = (value: string | undefined): number | undefined => {
  const t = value ? Date.parse(value) : NaN;
  return Number.isFinite(t) ? t : undefined;
};

/** Every broken invariant of one cluster at one moment, as readable lines (empty when all hold). */
async function brokenInvariants(fleet: Fleet, row: ClusterSummaryDto, clusterNow: number): Promise<string[]> {
  const problems: string[] = [];
  const fail = (invariant: number, text: string) => problems.push(`I${invariant} ${text}`);
  const health = await healthOf(row.id);
  const state = updateStateOfHealth(health);
  const member = fleet.get(row.id)!;
  const updatingParts = state.controlPlane?.done === false || state.pools.some((p) => p.updated + p.unknown < p.total);

  // 1. One account of the update state: the fleet row, the progress and the header's phase agree.
  if (row.updatePhase !== state.phase) fail(1, `fleet row says ${row.updatePhase}, the cluster page ${state.phase}`);
  if (health.updateProgress?.updating && state.phase === 'idle') fail(1, 'progress says updating, the state idle');
  if (state.phase.startsWith('updating-') && !updatingParts) fail(1, `${state.phase} while every part is done`);
  if (state.estimate.remainingSeconds === 0) fail(1, 'an estimate of 0 s left');

  // 2. No command while it is unsafe; the preselected target is recommended.
  const recommendations = health.updateRecommendations;
  for (const target of recommendations?.updates ?? []) {
    const command = updateCommand(target, predictionsFor(recommendations!, target), { state, acknowledged: true });
    if (command && state.phase !== 'idle') fail(2, `"${command}" offered while ${state.label}`);
    if (command && target.risks.some((r) => r.name === UPGRADEABLE_FALSE_RISK))
      fail(2, `"${command}" offered while Upgradeable=False`);
  }
  const preselected = recommendations && defaultTarget(recommendations.updates);
  if (preselected && !preselected.recommended) fail(2, `preselects ${preselected.version}, which is not recommended`);

  // 3. A frozen status is announced.
  const rejected = health.findings.some(
    (f) => f.detector === 'status-write-rejection' && f.severity === 'critical' && f.basis !== 'predicted',
  );
  if (rejected && (state.phase !== 'status-frozen' || !state.frozen))
    fail(3, `writes rejected, but the state is ${state.phase}`);

  // 4. The rollback guide agrees with the findings.
  const desired = health.cluster.desiredVersion;
  if (health.cluster.role !== 'hosted' && desired) {
    for (const version of new Set(health.cluster.history.map((entry) => entry.version).filter(Boolean))) {
      const plan = await planOf(row.id, version);
      if (!plan) continue;
      const newer = compareVersions(version, desired) > 0;
      if (newer !== (plan.direction === 'roll-forward'))
        fail(4, `${version} from ${desired} is called a ${plan.direction}`);
      const operators = plan.checks.find((check) => check.id === 'operators');
      if (state.phase === 'status-frozen' && operators?.status === 'pass')
        fail(4, `control plane passes while frozen (${version})`);
    }
  }

  for (const finding of health.findings) {
    // 5. Since is the onset: never after the earliest time its evidence shows, never in the future.
    const since = timeOf(finding.since);
    const times = finding.evidence.flatMap((e) => (timeOf(e.at) !== undefined ? [timeOf(e.at)!] : []));
    if (since !== undefined && times.some((t) => t < since))
      fail(5, `${finding.id} since ${finding.since} after its evidence`);
    if (since !== undefined && since > clusterNow) fail(5, `${finding.id} since ${finding.since} in the future`);
    // 6. Root causes stay: never a transient cleanup message.
    const rootCause = finding.evidence.find((e) => e.label.startsWith('Root cause'));
    const transient = typeof rootCause?.value === 'string' ? transientLabel(rootCause.value) : undefined;
    if (transient) fail(6, `${finding.id} root cause is transient (${transient})`);
  }

  // 7. Findings about what exists: no OLMv1 finding on a release without OLMv1.
  if (!runsOlmv1(member.snapshot())) {
    const olm = health.findings.filter(
      (f) => f.detector === 'catalog-replicas' && f.subject.namespace !== UPSTREAM_OLMV1_NAMESPACE,
    );
    for (const finding of olm) fail(7, `${finding.id} on ${health.cluster.version}, which runs no OLMv1`);
  }

  // 8. Only real targets: newer than the release the cluster-version operator reconciles, and in the channel.
  const { channel } = health.cluster;
  const from = recommendations?.currentVersion;
  for (const target of recommendations?.updates ?? []) {
    if (from && compareVersions(target.version, from) <= 0) fail(8, `offers ${target.version} to ${from}`);
    if (channel && !CHANNELS[channel]?.includes(target.version)) fail(8, `offers ${target.version}, not in ${channel}`);
  }
  return problems.map((problem) => `${row.id}: ${problem}`);
}

async function settle(engine: ClusterEngine, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the engine did not sync with the embedded cluster');
    engine.evaluateNow();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const STORIES = Object.keys(SCENARIOS) as ScenarioName[];

describe('truth invariants over every story', () => {
  it.each(STORIES)(
    '%s: every invariant holds at every moment, for every cluster it shows',
    async (name) => {
      server = await startTestServer({ seed: 7 });
      runScenario(server.cluster, SCENARIOS[name]!);
      const engine = new ClusterEngine({
        id: name,
        name,
        connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'),
      });
      const fleet = new Fleet([engine]);
      holder.__updateHealthFleet = fleet;
      engine.start();
      await settle(engine, () => engine.health().sources.length > 0 && engine.health().sources.every(sourceUpToDate));
      const problems: string[] = [];
      let looked = 0;
      for (let at = 2 * MINUTE; at <= STORY_MS; at += LOOK_EVERY_MS) {
        while (server.cluster.clock.now() - DEFAULT_START_TIME < at) {
          server.cluster.clock.advance(30_000);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        engine.evaluateNow();
        for (const row of await rows()) {
          looked++;
          problems.push(
            ...(await brokenInvariants(fleet, row, server.cluster.clock.now())).map(
              (p) => `at ${at / MINUTE} min: ${p}`,
            ),
          );
        }
      }
      expect(looked).toBeGreaterThanOrEqual(15);
      expect([...new Set(problems)]).toStrictEqual([]);
    },
    240_000,
  );
});
