import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterHealthDto, SeverityDto } from '@/lib/api/dto';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ScenarioName } from '@/server/simulator/types';
import { ClusterEngine } from './cluster-engine';
import { createKubeConnection } from './kube-connection';

/** What each story must show once it reached its failure, through the real watch layer. */
const EXPECTED: { scenario: ScenarioName; detector: string; severities: SeverityDto[] }[] = [
  { scenario: 'cross-minor-rollback', detector: 'status-write-rejection', severities: ['critical'] },
  { scenario: 'hypershift-featuregate-drop', detector: 'featuregate-coverage', severities: ['critical'] },
  { scenario: 'catalogd-rollout', detector: 'catalog-replicas', severities: ['critical', 'warning'] },
  { scenario: 'extension-install-flap', detector: 'install-settling', severities: ['critical', 'warning'] },
  { scenario: 'update-in-progress', detector: 'update-progress', severities: ['critical', 'warning', 'info', 'ok'] },
];

let server: TestServer | undefined;
let engine: ClusterEngine | undefined;

afterEach(async () => {
  engine?.stop();
  await server?.close();
  engine = undefined;
  server = undefined;
});

async function boot(name: ScenarioName): Promise<{ server: TestServer; engine: ClusterEngine }> {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`scenario ${name} is not registered`);
  server = await startTestServer();
  runScenario(server.cluster, scenario);
  engine = new ClusterEngine({ id: name, name, connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim') });
  engine.start();
  return { server, engine };
}

async function until(engine: ClusterEngine, check: (health: ClusterHealthDto) => boolean, timeoutMs = 15_000): Promise<ClusterHealthDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    engine.evaluateNow();
    const health = engine.health();
    if (check(health)) return health;
    if (Date.now() > deadline) return health;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('findings through kubeconfig against the embedded cluster', () => {
  it('steady: every source syncs and nothing is red', async () => {
    const { server: s, engine: e } = await boot('steady');
    s.cluster.clock.advance(10 * 60_000);
    const health = await until(e, (h) => h.sources.length > 0 && h.sources.every((source) => source.status === 'synced'));
    expect(health.sources.every((source) => source.status === 'synced')).toBe(true);
    expect(health.cluster.version).toMatch(/^4\.16\./);
    expect(health.findings.filter((finding) => finding.severity === 'critical' || finding.severity === 'warning')).toEqual([]);
  });

  it.each(EXPECTED)('$scenario: $detector reports $severities', async ({ scenario, detector, severities }) => {
    if (!SCENARIOS[scenario]) return expect.fail(`scenario ${scenario} is not registered`);
    const { server: s, engine: e } = await boot(scenario);
    s.cluster.clock.advance(SCENARIOS[scenario]!.failureAtMs + 60_000);
    const health = await until(e, (h) => h.findings.some((finding) => finding.detector === detector && severities.includes(finding.severity)));
    const found = health.findings.filter((finding) => finding.detector === detector).map((finding) => `${finding.severity} ${finding.id}`);
    expect(health.findings.some((finding) => finding.detector === detector && severities.includes(finding.severity)), found.join('\n')).toBe(true);
  });
});
