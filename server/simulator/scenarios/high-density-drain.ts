import type { Scenario, ScenarioContext } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { drainNode, setSchedulable } from '../controllers/node-drain';
import type { NodeLoad } from '../controllers/ovnkube';
import { historyEntry } from '../objects/cluster-version';
import { templateHash } from '../objects/ids';
import { randomSuffix } from '../random';
import { buildPod, ownerRef, podStatus } from '../objects/pods';
import { HOUR, MINUTE, SECOND } from '../objects/time';
import { createWithStatus } from '../objects/write';

/** Version of the high-density cluster. */
export const HD_VERSION = '4.18.12';
/** Namespace of the dense workload. */
export const HD_NAMESPACE = 'density-app';
/** Real Pod objects per worker (the metrics account for the full density, see HD_REPORTED_RECREATIONS). */
export const HD_REAL_PODS_PER_WORKER = 100;
/** Pod creations the ovnkube metrics record for the drain (2,000 pods recreated on the two other workers). */
export const HD_REPORTED_RECREATIONS = 2000;
/** When the third worker is drained. */
export const HD_DRAIN_AT_MS = 5 * MINUTE;
/** The mass re-creation burst after the drain. */
export const HD_BURST_WINDOW = { fromMs: HD_DRAIN_AT_MS, toMs: HD_DRAIN_AT_MS + 10 * MINUTE } as const;
/** When the drained worker is uncordoned. */
export const HD_UNCORDONED_AT_MS = 25 * MINUTE;
/** Window in which pod-creation p99 stays above 3 s (the burst, then sandbox re-creation churn). */
export const HD_SLOW_WINDOW = { fromMs: HD_DRAIN_AT_MS, toMs: 80 * MINUTE } as const;
/** When pod batching is enabled in ovnkube-controller; from then p99 stays below 0.5 s. */
export const HD_BATCHING_AT_MS = 80 * MINUTE;
/** Batching settings (PR defaults: 100 ms window, 50 pods per batch). */
export const HD_BATCH_CONFIG = { windowMs: 100, batchSize: 50, parallelBatches: 4 } as const;

const OVN_TICKS_PER_MINUTE = 6;

const burstLoad: NodeLoad = {
  podsPerTick: HD_REPORTED_RECREATIONS / 2 / (10 * OVN_TICKS_PER_MINUTE),
  latency: (random) => 1.5 + 7 * random() ** 1.5,
};
const churnLoad: NodeLoad = { podsPerTick: 4, latency: (random) => 1.2 + 5 * random() ** 2 };
const batchedLoad: NodeLoad = { podsPerTick: 4, latency: (random) => 0.06 + 0.28 * random() };

/**
 * `high-density-drain`: a worker drain recreates ~2,000 pods on the two other workers; ovnkube-controller's
 * pod-creation latency p99 climbs past 3 s and stays there while sandboxes keep being recreated, until pod batching
 * is enabled and p99 falls below 0.5 s. 100 real pods per worker stand for the dense workload.
 */
export const highDensityDrainScenario: Scenario = {
  name: 'high-density-drain',
  title: 'High-density drain overwhelms OVN pod setup',
  description:
    'Draining a dense worker recreates ~2,000 pods; ovnkube pod-creation latency p99 exceeds 3 s, then pod batching ' +
    'is enabled and p99 drops below 0.5 s.',
  failureAtMs: HD_DRAIN_AT_MS + 2 * MINUTE,
  start(context) {
    const start = context.clock.now();
    const base = installBaseCluster(context, {
      version: HD_VERSION,
      history: [
        historyEntry(HD_VERSION, start - 9 * 24 * HOUR, start - 9 * 24 * HOUR + 71 * MINUTE),
        historyEntry('4.17.24', start - 50 * 24 * HOUR, start - 50 * 24 * HOUR + 66 * MINUTE),
      ],
      catalogd: { replicas: 2, pdb: { minAvailable: 1 }, nonLeaderServes: true },
      namespaces: [HD_NAMESPACE],
    });
    const [w0, w1, w2] = base.nodes.worker;
    const hash = templateHash(context.random);
    const newPod = (node: string, ready: boolean) => createDensityPod(context, node, hash, ready);
    for (const node of [w0, w1, w2]) for (let i = 0; i < HD_REAL_PODS_PER_WORKER; i++) newPod(node, true);

    context.clock.setTimeout(() => {
      base.ovnkube.setLoad(w0, burstLoad);
      base.ovnkube.setLoad(w1, burstLoad);
      base.ovnkube.setLoad(w2, { podsPerTick: 0, latency: () => 0 });
      let turn = 0;
      drainNode(context, w2, {
        manager: 'oc',
        expectedFor: base.expectedFor,
        onEvicted: (pod) => {
          context.clock.setTimeout(
            () => context.as('kubelet').delete('pods', pod.metadata.name, HD_NAMESPACE),
            5 * SECOND,
          );
          const target = turn++ % 2 === 0 ? w0 : w1;
          const delay = 5 * SECOND + (turn % 60) * 9 * SECOND;
          context.clock.setTimeout(() => newPod(target, false), delay);
        },
      });
    }, HD_DRAIN_AT_MS);
    context.clock.setTimeout(() => {
      base.ovnkube.setLoad(w0, churnLoad);
      base.ovnkube.setLoad(w1, churnLoad);
    }, HD_BURST_WINDOW.toMs);
    context.clock.setTimeout(() => setSchedulable(context, w2, true, 'oc'), HD_UNCORDONED_AT_MS);
    context.clock.setTimeout(() => {
      base.ovnkube.enableBatching({ ...HD_BATCH_CONFIG });
      for (const node of [w0, w1]) base.ovnkube.setLoad(node, batchedLoad);
    }, HD_BATCHING_AT_MS);
  },
};

/** A pod of the dense workload; new ones become Ready after OVN wired them (seconds under load). */
function createDensityPod(context: ScenarioContext, node: string, hash: string, ready: boolean): void {
  const now = context.clock.now();
  const name = `${HD_NAMESPACE}-${hash}-${randomSuffix(context.random)}`;
  const pod = buildPod({
    name,
    namespace: HD_NAMESPACE,
    nodeName: node,
    labels: { app: HD_NAMESPACE, 'pod-template-hash': hash },
    containers: [{ name: 'app', image: 'registry.example.com/density/pause-app@sha256:' + 'e3'.repeat(32) }],
    ownerReferences: [ownerRef('ReplicaSet', `${HD_NAMESPACE}-${hash}`, `density-rs-${hash}`)],
  });
  const created = ready ? now - 2 * HOUR : now;
  pod.status = ready
    ? podStatus(pod, 'Ready', {
        scheduledMs: created,
        startedMs: created + 4 * SECOND,
        readyMs: created + 6 * SECOND,
        podIP: '10.131.0.10',
        hostIP: '10.0.0.1',
      })
    : podStatus(pod, 'ContainerCreating', { scheduledMs: now, hostIP: '10.0.0.1' });
  createWithStatus(context.as('kube-controller-manager'), 'pods', pod);
  if (ready) return;
  context.clock.setTimeout(
    () => {
      const live = context.client.get('pods', name, HD_NAMESPACE);
      if (!live) return;
      const status = podStatus(live, 'Ready', {
        scheduledMs: now,
        startedMs: now + 4 * SECOND,
        readyMs: context.clock.now(),
        podIP: '10.131.0.10',
        hostIP: '10.0.0.1',
      });
      context.as('kubelet').updateStatus('pods', { ...live, status });
    },
    6 * SECOND + Math.floor(context.random() * 5000),
  );
}
