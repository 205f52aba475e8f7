/**
 * A leader Lease renewed by its holder (catalogd's every 26 s) is not a reason to evaluate its cluster: nothing a
 * detector finds can come of it. It still is while a published finding cites that Lease (the renewal may clear it),
 * and every other Lease change (a new holder, an acquisition) is evaluated within the coalesce as before. The
 * periodic re-evaluation is pushed out of the tests' reach (`pollScale`), so only events evaluate here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { runScenario } from '@/server/simulator/core';
import { CATALOGD_LEASE, CATALOGD_NAMESPACE } from '@/server/simulator/objects/olm';
import { MINUTE, SECOND, isoMicro } from '@/server/simulator/objects/time';
import { CATALOGD_GAP_WINDOW, CATALOGD_UNCORDONED_AT_MS } from '@/server/simulator/scenarios/catalogd-rollout';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { until } from '@/server/testing/reflector-harness';
import { evaluationsSoFar as evaluations } from '@/server/testing/evaluation-count';
import { ClusterEngine } from './cluster-engine';
import { evaluationPacer } from './evaluation-pacer';

const NO_PERIODIC = 100_000;
/** catalogd's renewal period (controller-runtime's RetryPeriod), as the simulator's catalogd renews. */
const RENEW_PERIOD_MS = 26 * SECOND;
const LEASE_FINDING = `catalog-replicas:Lease/${CATALOGD_NAMESPACE}/${CATALOGD_LEASE}:holder-not-ready`;
/** After the rollout and the blocked drain: two ready catalogd replicas, nothing but renewals goes on. */
const QUIET_AT_MS = CATALOGD_UNCORDONED_AT_MS + 5 * MINUTE;

let server: TestServer | undefined;
let engine: ClusterEngine | undefined;

afterEach(async () => {
  engine?.stop();
  await server?.close();
  engine = undefined;
  server = undefined;
});

/** catalogd-rollout at `atMs` of its story, watched by an engine whose first sync settled and was published. */
async function boot(atMs: number): Promise<{ server: TestServer; engine: ClusterEngine }> {
  server = await startTestServer();
  runScenario(server.cluster, SCENARIOS['catalogd-rollout']!);
  server.cluster.clock.advance(atMs);
  const connection = createKubeConnection(server.kubeconfigPath('reader'), 'sim');
  engine = new ClusterEngine({ id: 'catalogd', name: 'catalogd', connection, pollScale: NO_PERIODIC });
  let settled = false;
  engine.onFirstSync(() => (settled = true));
  engine.start();
  await until('the first sync to settle', () => settled, 20_000);
  const running = engine;
  await until('the settled snapshot to be published', () =>
    running.health().sources.every((source) => source.status !== 'pending'),
  );
  await quiet(running);
  return { server, engine };
}

/** Until the sources settled and nothing the engine scheduled is still to run: from there on, only changes count. */
async function quiet(e: ClusterEngine): Promise<void> {
  await until('the engine to be quiet', () => e.settled() && !e.evaluationDue() && !evaluationPacer().size);
}

function lease(s: TestServer): KubeObject {
  return s.cluster.client.get('leases', CATALOGD_LEASE, CATALOGD_NAMESPACE)!;
}

function spec(object: KubeObject): { holderIdentity?: string; renewTime?: string } {
  return object.spec as { holderIdentity?: string; renewTime?: string };
}

/** Waits until the engine's object cache holds the Lease as the API server has it now. */
async function cached(s: TestServer, e: ClusterEngine): Promise<KubeObject> {
  const want = lease(s).metadata.resourceVersion;
  const seen = () => e.snapshot().objects.leases?.find((object) => object.metadata.resourceVersion === want);
  return (await until('the Lease to reach the engine', seen, 5_000))!;
}

function leaseFinding(health: ClusterHealthDto) {
  return health.findings.find((finding) => finding.id === LEASE_FINDING);
}

describe('a cluster engine and its leader Lease', () => {
  it('does not evaluate a renewal by the same holder, yet caches the renewed Lease', async () => {
    const { server: s, engine: e } = await boot(QUIET_AT_MS);
    expect(leaseFinding(e.health())).toBeUndefined();
    const before = await evaluations();
    const renewals = 6;
    for (let i = 0; i < renewals; i += 1) {
      const previous = spec(lease(s));
      s.cluster.clock.advance(RENEW_PERIOD_MS);
      const renewed = spec(await cached(s, e));
      // A renewal and nothing else: the simulator's catalogd renews as the real one does.
      expect(renewed.holderIdentity).toBe(previous.holderIdentity);
      expect(Date.parse(renewed.renewTime!) - Date.parse(previous.renewTime!)).toBe(RENEW_PERIOD_MS);
    }
    // Another change of the Lease (a label) is evaluated, once: an evaluation a renewal scheduled would have run
    // before it or with it.
    const current = lease(s);
    s.cluster.client.update('leases', { ...current, metadata: { ...current.metadata, labels: { sentinel: 'yes' } } });
    await cached(s, e);
    await until('the labelled Lease to be evaluated', async () => (await evaluations()) > before, 5_000, 5);
    // Before: one evaluation per renewal; now only the label's.
    expect((await evaluations()) - before).toBe(1);
  });

  it('raises the finding on a Lease held by a gone pod and clears it as soon as a ready pod takes the Lease', async () => {
    const { server: s, engine: e } = await boot(0);
    // Step through the rollout: the only catalogd pod is replaced; the Lease still names the old one.
    for (let at = 30 * SECOND; at <= CATALOGD_GAP_WINDOW.fromMs + 30 * SECOND; at += 30 * SECOND) {
      s.cluster.clock.advance(30 * SECOND);
      await cached(s, e);
    }
    const gone = await until('the Lease finding', () => leaseFinding(e.health()), 10_000);
    expect(gone!.title).toMatch(/no longer exists/);
    const oldHolder = spec(lease(s)).holderIdentity;
    s.cluster.clock.advance(CATALOGD_GAP_WINDOW.toMs - CATALOGD_GAP_WINDOW.fromMs);
    expect(spec(lease(s)).holderIdentity).not.toBe(oldHolder);
    const takenAt = Date.now();
    await until('the Lease finding to clear', () => !leaseFinding(e.health()), 5_000, 5);
    // The new holder's event and the 5 ms coalesce (pods at 250 ms), on a busy machine.
    expect(Date.now() - takenAt).toBeLessThan(2_000);
  });

  it('evaluates a renewal while a finding cites the Lease: the holder renewing again clears "stopped renewing"', async () => {
    const { server: s, engine: e } = await boot(QUIET_AT_MS);
    // The holder stalled: its last renewal lies 3 minutes back, past the 137 s lease duration.
    const current = lease(s);
    const stalledAt = isoMicro(s.cluster.clock.now() - 3 * MINUTE);
    s.cluster.client.update('leases', { ...current, spec: { ...spec(current), renewTime: stalledAt } });
    const stalled = await until('the expired Lease finding', () => leaseFinding(e.health()), 10_000);
    expect(stalled!.title).toMatch(/stopped renewing/);
    // The warning turned the cluster active: the active tier's first sync is evaluated before the renewal comes.
    await quiet(e);
    // It renews again: same holder, only renewTime moves. The published finding cites the Lease: evaluated.
    s.cluster.clock.advance(RENEW_PERIOD_MS);
    const renewedAt = Date.now();
    const renewed = await cached(s, e);
    expect(spec(renewed).holderIdentity).toBe(spec(current).holderIdentity);
    await until('the Lease finding to clear', () => !leaseFinding(e.health()), 5_000, 5);
    expect(Date.now() - renewedAt).toBeLessThan(2_000);
  });
});
