import type { KubeObject } from '@/lib/k8s/types';
import type { PodLogs, ScenarioContext } from '../types';
import { randomSuffix } from '../random';
import { buildPod, ownerRef, podStatus } from '../objects/pods';
import { componentImage } from '../objects/releases';
import { HOUR, SECOND } from '../objects/time';
import { createWithStatus } from '../objects/write';
import { klogLine } from './klog';

/** The library-go feature-gate reader's error for a version missing from FeatureGate status. */
export function missingFeatureGateVersionMessage(version: string): string {
  return `unable to determine features: missing desired version "${version}" in featuregates.config.openshift.io/cluster`;
}

/** kubelet's CrashLoopBackOff back-off for the nth restart (10 s doubling, capped at 5 min). */
export function crashBackoffSeconds(restarts: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, restarts - 1));
}

/** A component whose pods read the FeatureGate for the version they run. */
export interface FeatureGateConsumer {
  namespace: string;
  /** DaemonSet that owns the pods {@link FeatureGateConsumerPods.start} creates (one per node). */
  daemonSet: string;
  container: string;
  /** Release the component runs (the version it looks up in FeatureGate status). */
  version: string;
  /**
   * The versions the component can see in FeatureGate status. Default: featuregates.config.openshift.io/cluster
   * of this cluster; a hosted control plane's operators see what its rendered `feature-gate` ConfigMap lists.
   */
  listedVersions?: () => string[];
}

interface Tracked {
  name: string;
  node: string;
  createdMs: number;
  restarts: number;
  lastStartedMs: number;
  crashing: boolean;
  /** When the current crash loop began (the pod stopped being ready). */
  downSinceMs?: number;
}

type RestartableLogs = PodLogs & { restart?: (namespace: string, pod: string, container: string) => void };

/**
 * Pods of a component that read featuregates.config.openshift.io/cluster at start-up through library-go: while the
 * version they run is listed they stay Ready; once it is missing every start fails (E from the FeatureGateAccess
 * controller, then F and exit 255) and the kubelet restarts them with CrashLoopBackOff back-off.
 */
export class FeatureGateConsumerPods {
  private readonly pods: Tracked[] = [];

  constructor(
    private readonly context: ScenarioContext,
    private readonly consumer: FeatureGateConsumer,
  ) {}

  /** Creates one Ready pod per node and starts checking the FeatureGate every 10 s. */
  start(nodes: string[]): void {
    const now = this.context.clock.now();
    for (const node of nodes) {
      const name = `${this.consumer.daemonSet}-${randomSuffix(this.context.random)}`;
      const pod = this.build(name, node);
      const created = now - 6 * HOUR;
      pod.status = podStatus(pod, 'Ready', {
        scheduledMs: created,
        startedMs: created + 3 * SECOND,
        readyMs: created + 9 * SECOND,
        podIP: '10.0.0.1',
        hostIP: '10.0.0.1',
      });
      createWithStatus(this.context.as('kubelet'), 'pods', pod);
      this.pods.push({
        name,
        node,
        createdMs: created,
        restarts: 0,
        lastStartedMs: created + 3 * SECOND,
        crashing: false,
      });
      this.appendStart(name, created + 3 * SECOND);
    }
    this.context.clock.setInterval(() => this.check(), 10 * SECOND);
  }

  private build(name: string, node: string): KubeObject {
    return buildPod({
      name,
      namespace: this.consumer.namespace,
      nodeName: node,
      labels: {
        'openshift-app': this.consumer.daemonSet,
        'controller-revision-hash': '6c5d8f7b9d',
        'pod-template-generation': '3',
      },
      containers: [
        { name: this.consumer.container, image: componentImage(this.consumer.daemonSet, this.consumer.version) },
      ],
      ownerReferences: [ownerRef('DaemonSet', this.consumer.daemonSet, `${this.consumer.daemonSet}-ds`)],
      priorityClassName: 'system-node-critical',
    });
  }

  /**
   * Tracks pods that already exist (e.g. a Deployment's pod in a hosted control-plane namespace) instead of
   * creating them, and starts checking the FeatureGate every 10 s.
   */
  adopt(pods: { name: string; node: string; createdMs: number }[]): void {
    for (const pod of pods) {
      this.pods.push({
        name: pod.name,
        node: pod.node,
        createdMs: pod.createdMs,
        restarts: 0,
        lastStartedMs: pod.createdMs + 3 * SECOND,
        crashing: false,
      });
      this.appendStart(pod.name, pod.createdMs + 3 * SECOND);
    }
    this.context.clock.setInterval(() => this.check(), 10 * SECOND);
  }

  private versionListed(): boolean {
    if (this.consumer.listedVersions) return this.consumer.listedVersions().includes(this.consumer.version);
    const gate = this.context.client.get('featuregates', 'cluster');
    const entries = (gate?.status as { featureGates?: { version: string }[] } | undefined)?.featureGates ?? [];
    return entries.some((entry) => entry.version === this.consumer.version);
  }

  private check(): void {
    if (this.versionListed()) return;
    for (const tracked of this.pods) {
      if (!tracked.crashing) {
        tracked.crashing = true;
        this.crash(tracked);
      }
    }
  }

  private appendStart(pod: string, atMs: number): void {
    this.context.logs.append(
      this.consumer.namespace,
      pod,
      this.consumer.container,
      klogLine('I', atMs, 'main.go:102', `Starting ${this.consumer.daemonSet} version ${this.consumer.version}`, 311),
    );
    this.context.logs.append(
      this.consumer.namespace,
      pod,
      this.consumer.container,
      klogLine('I', atMs + 150, 'simple_featuregate_reader.go:171', 'Starting feature-gate-detector', 512),
    );
  }

  /** Stops tracking a pod (its workload replaced it). */
  forget(name: string): void {
    const index = this.pods.findIndex((pod) => pod.name === name);
    if (index >= 0) this.pods.splice(index, 1);
  }

  /** Whether any tracked pod is crash-looping right now. */
  get crashing(): boolean {
    return this.pods.some((pod) => pod.crashing);
  }

  /** The container starts, fails to read its features and exits; the kubelet schedules the next start. */
  private crash(tracked: Tracked): void {
    if (!this.pods.includes(tracked)) return;
    const now = this.context.clock.now();
    const { namespace, container } = this.consumer;
    const message = missingFeatureGateVersionMessage(this.consumer.version);
    const logs = this.context.logs as RestartableLogs;
    if (tracked.restarts > 0) {
      logs.restart?.(namespace, tracked.name, container);
      this.appendStart(tracked.name, now);
    }
    tracked.lastStartedMs = now;
    tracked.downSinceMs ??= now;
    const errorLine = klogLine(
      'E',
      now + 1200,
      'base_controller.go:268',
      `"FeatureGateAccess" controller failed to sync "key", err: ${message}`,
      77,
    );
    const fatalLine = klogLine('F', now + 60_200, 'main.go:131', message, 903);
    logs.append(namespace, tracked.name, container, errorLine);
    logs.append(namespace, tracked.name, container, fatalLine);
    tracked.restarts++;
    const backoff = crashBackoffSeconds(tracked.restarts);
    const live = this.context.client.get('pods', tracked.name, namespace);
    if (live) {
      const times = {
        scheduledMs: tracked.createdMs,
        startedMs: tracked.createdMs + 3 * SECOND,
        notReadyMs: tracked.downSinceMs,
        podIP: '10.0.0.1',
        hostIP: '10.0.0.1',
      };
      const status = podStatus(live, 'CrashLoopBackOff', times, {
        restartCount: tracked.restarts,
        lastStartedMs: now,
        lastFinishedMs: now + 60_300,
        backoffSeconds: backoff,
        message: `${errorLine}\n${fatalLine}\n`,
      });
      this.context.as('kubelet').updateStatus('pods', { ...live, status });
    }
    this.context.clock.setTimeout(
      () => {
        if (this.versionListed()) {
          tracked.crashing = false;
          tracked.downSinceMs = undefined;
          return;
        }
        this.crash(tracked);
      },
      60_300 + backoff * SECOND,
    );
  }

  /** Names of the pods. */
  get podNames(): string[] {
    return this.pods.map((pod) => pod.name);
  }
}
