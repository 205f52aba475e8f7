import type { ScenarioContext } from '../types';
import { OvnkubeNodeMetrics, type PodBatchConfig } from '../metrics/ovnkube-metrics';
import { randomSuffix } from '../random';
import { buildPod, ownerRef, podStatus } from '../objects/pods';
import { componentImage } from '../objects/releases';
import { SECOND } from '../objects/time';
import { createWithStatus } from '../objects/write';
import { klogLine } from './klog';

/** Namespace of OVN-Kubernetes. */
export const OVN_NAMESPACE = 'openshift-ovn-kubernetes';
/** Port of the ovnkube-controller / ovnkube-node metrics endpoint inside ovnkube-node pods (127.0.0.1:29103). */
export const OVNKUBE_METRICS_PORT = 29103;
/** The kube-rbac-proxy-node port that fronts 29103 for Prometheus (same content here). */
export const OVNKUBE_METRICS_PROXY_PORT = 9103;
/** Virtual interval at which pod-setup observations are made. */
export const OVNKUBE_TICK_MS = 10 * SECOND;

/** Pod-creation load on one node: pods per tick and the latency of each (seconds). */
export interface NodeLoad {
  podsPerTick: number;
  latency: (random: () => number) => number;
}

const OVNKUBE_NODE_CONTAINERS = [
  'ovn-controller',
  'ovn-acl-logging',
  'kube-rbac-proxy-node',
  'kube-rbac-proxy-ovn-metrics',
  'northd',
  'nbdb',
  'sbdb',
  'ovnkube-controller',
];

/**
 * OVN-Kubernetes in interconnect mode: one ovnkube-node pod per node (DaemonSet pods) whose ovnkube-controller
 * records pod-setup latency in its own metrics registry, served on port 29103 (and 9103) through the pod proxy.
 * Latencies come from per-node loads driven by the virtual clock.
 */
export class OvnkubeController {
  /** ovnkube-node pod name per node. */
  readonly podByNode = new Map<string, string>();
  readonly metricsByNode = new Map<string, OvnkubeNodeMetrics>();
  private readonly loads = new Map<string, NodeLoad>();
  private batching?: PodBatchConfig;

  constructor(
    private readonly context: ScenarioContext,
    private readonly version: string,
  ) {}

  /** Creates the ovnkube-node pods and their metrics endpoints. */
  createPods(nodes: string[]): void {
    const now = this.context.clock.now();
    const dsUid = 'ovnkube-node-daemonset';
    for (const node of nodes) {
      const name = `ovnkube-node-${randomSuffix(this.context.random)}`;
      const pod = buildPod({
        name,
        namespace: OVN_NAMESPACE,
        nodeName: node,
        labels: {
          app: 'ovnkube-node',
          component: 'network',
          'ovn-db-pod': 'true',
          type: 'infra',
          'kubernetes.io/os': 'linux',
          'openshift.io/component': 'network',
          'controller-revision-hash': '7d9f5c8b6',
        },
        containers: OVNKUBE_NODE_CONTAINERS.map((container) => ({
          name: container,
          image: componentImage(container.startsWith('kube-rbac') ? 'kube-rbac-proxy' : 'ovn-kubernetes', this.version),
          ...(container === 'kube-rbac-proxy-node'
            ? { ports: [{ containerPort: OVNKUBE_METRICS_PROXY_PORT, name: 'https' }] }
            : {}),
          ...(container === 'kube-rbac-proxy-ovn-metrics' ? { ports: [{ containerPort: 9105, name: 'https' }] } : {}),
        })),
        ownerReferences: [ownerRef('DaemonSet', 'ovnkube-node', dsUid)],
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
      });
      pod.status = podStatus(pod, 'Ready', {
        scheduledMs: now - 5 * 3600 * SECOND,
        startedMs: now - 5 * 3600 * SECOND + 4 * SECOND,
        readyMs: now - 5 * 3600 * SECOND + 40 * SECOND,
        podIP: '10.0.0.1',
        hostIP: '10.0.0.1',
      });
      createWithStatus(this.context.as('kubelet'), 'pods', pod);
      const metrics = new OvnkubeNodeMetrics();
      this.podByNode.set(node, name);
      this.metricsByNode.set(node, metrics);
      const handler = (path: string) =>
        path.replace(/^\//, '') === 'metrics'
          ? { status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body: metrics.text() }
          : { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
      // Rendered when scraped: an idle cluster's metrics are read by no one.
      const render = () => metrics.settled();
      this.context.proxy.registerPod(OVN_NAMESPACE, name, OVNKUBE_METRICS_PORT, handler, render);
      this.context.proxy.registerPod(OVN_NAMESPACE, name, OVNKUBE_METRICS_PROXY_PORT, handler, render);
      this.loads.set(node, { podsPerTick: 0.3, latency: (random) => 0.12 + random() * 0.2 });
      this.context.logs.append(
        OVN_NAMESPACE,
        name,
        'ovnkube-controller',
        klogLine(
          'I',
          now - 5 * 3600 * SECOND + 6 * SECOND,
          'ovnkube.go:599',
          `Starting ovnkube-controller (zone ${node})`,
        ),
      );
    }
  }

  /** Starts observing pod setups every OVNKUBE_TICK_MS. */
  start(): void {
    this.context.clock.setInterval(() => this.tick(), OVNKUBE_TICK_MS);
  }

  /** Replaces a node's load. */
  setLoad(node: string, load: NodeLoad): void {
    this.loads.set(node, load);
  }

  /** Turns pod batching on for every ovnkube-controller (exposes the batching metrics). */
  enableBatching(config: PodBatchConfig): void {
    this.batching = config;
    for (const [node, metrics] of this.metricsByNode) {
      metrics.enableBatching(config);
      const pod = this.podByNode.get(node);
      if (pod) {
        this.context.logs.append(
          OVN_NAMESPACE,
          pod,
          'ovnkube-controller',
          klogLine(
            'I',
            this.context.clock.now(),
            'pods.go:112',
            `Pod batching enabled: window=${config.windowMs}ms batchSize=${config.batchSize} parallelBatches=${config.parallelBatches}`,
          ),
        );
      }
    }
  }

  /** Resolves once every pod's metrics text is up to date. */
  async settled(): Promise<void> {
    for (const metrics of this.metricsByNode.values()) await metrics.settled();
  }

  private carry = new Map<string, number>();

  private tick(): void {
    const random = this.context.random;
    for (const [node, metrics] of this.metricsByNode) {
      const load = this.loads.get(node);
      if (!load) continue;
      const exact = load.podsPerTick + (this.carry.get(node) ?? 0);
      const count = Math.floor(exact);
      this.carry.set(node, exact - count);
      for (let i = 0; i < count; i++) metrics.observePod(load.latency(random), random);
      if (this.batching && count > 0) {
        let left = count;
        while (left > 0) {
          const size = Math.min(left, this.batching.batchSize);
          metrics.observeBatch(size, 0.02 + size * 0.0015 + random() * 0.01);
          left -= size;
        }
      }
    }
  }
}
