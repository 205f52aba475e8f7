import type { Condition, KubeObject } from '@/lib/k8s/types';
import { load } from 'js-yaml';
import type { ScenarioContext } from '../types';
import { randomSuffix } from '../random';
import { setCondition } from '../objects/conditions';
import {
  FEATURE_GATE_CONFIGMAP,
  FEATURE_GATE_KEY,
  buildControlPlaneComponent,
  buildFeatureGateConfigMap,
  buildHcpDeployment,
  hcpNamespace,
  hsCondition,
  versionOfTagImage,
} from '../objects/hypershift';
import { FEATURE_GATE_CONSUMERS, HCP_WORKLOADS, type HcpWorkload } from '../objects/hcp-workloads';
import { hostedControlPlaneStatus, type HcpHistoryEntry } from './hosted-control-plane-status';
import { templateHash } from '../objects/ids';
import { buildPod, ownerRef, podStatus } from '../objects/pods';
import { HOUR, SECOND, iso } from '../objects/time';
import { createWithStatus, mutateStatus } from '../objects/write';
import { FeatureGateConsumerPods } from './crash-loop';
import { FeatureGateWriter, type FeatureGateTarget, type FeatureGateWriterMode } from './feature-gate-writer';

/** Field managers, as on a real management cluster. */
const CPO = 'control-plane-operator';
const HCCO = 'hosted-cluster-config-operator';

/** How long a read of the rendered FeatureGate is reused (the operators' own resync is about this long). */
const FG_REREAD_MS = 5 * SECOND;

export type { HcpHistoryEntry };

/** Options of one simulated hosted control plane. */
export interface HostedControlPlaneOptions {
  name: string;
  /** History, newest first; history[0] is the Completed running version. */
  history: HcpHistoryEntry[];
  /** Management-cluster nodes the control-plane pods run on. */
  nodes: string[];
  featureGateMode: FeatureGateWriterMode;
  /** The incoming control-plane operator replaces the FeatureGate list instead of keeping history (the bug). */
  replaceFeatureGatesOnUpdate?: boolean;
  /** Virtual ms between reconciles. */
  resyncMs?: number;
}

interface WorkloadState {
  version: string;
  pod: string;
  ready: boolean;
  key: string;
}

interface VersionStatusView {
  desired?: { version?: string };
  history?: {
    version: string;
    state: string;
    startedTime: string;
    completionTime?: string | null;
    image: string;
    verified: boolean;
  }[];
}

/**
 * The control-plane operator, the hosted-cluster-config-operator and the guest CVO of one hosted control plane,
 * reduced to what the management cluster shows: it renders the HCP namespace (Deployments, pods,
 * ControlPlaneComponents, the `feature-gate` ConfigMap), rolls the workloads one at a time towards
 * `HostedControlPlane.spec.releaseImage` while every workload is available, and keeps the HostedControlPlane status
 * (versionStatus, conditions) consistent with them. Everything goes through the API.
 */
export class HostedControlPlaneController {
  readonly namespace: string;
  private readonly workloads = new Map<string, WorkloadState>();
  private readonly consumers = new Map<string, FeatureGateConsumerPods>();
  private readonly writer: FeatureGateWriter;
  private unavailableSince: number | undefined;
  private reconciles = 0;
  private parsedFg: { rv: string; versions: string[]; readAt: number } | undefined;

  constructor(
    private readonly context: ScenarioContext,
    private readonly options: HostedControlPlaneOptions,
  ) {
    this.namespace = hcpNamespace(options.name);
    this.writer = new FeatureGateWriter(context, options.featureGateMode, true, this.featureGateTarget());
  }

  /** Versions the rendered FeatureGate in the `feature-gate` ConfigMap lists (what the hosted operators see). */
  listedVersions(): string[] {
    const now = this.context.clock.now();
    // The four operators check at the same instants: one read of the (large) ConfigMap serves them all.
    if (this.parsedFg && now - this.parsedFg.readAt < FG_REREAD_MS) return this.parsedFg.versions;
    const cm = this.context.client.get('configmaps', FEATURE_GATE_CONFIGMAP, this.namespace);
    if (!cm) return [];
    const rv = cm.metadata.resourceVersion ?? '';
    if (this.parsedFg?.rv !== rv) {
      const text = (cm as { data?: Record<string, string> }).data?.[FEATURE_GATE_KEY] ?? '';
      const rendered = load(text) as { status?: { featureGates?: { version?: string }[] } } | undefined;
      this.parsedFg = {
        rv,
        readAt: now,
        versions: (rendered?.status?.featureGates ?? []).flatMap((entry) => (entry.version ? [entry.version] : [])),
      };
    }
    this.parsedFg.readAt = now;
    return this.parsedFg.versions;
  }

  private featureGateTarget(): FeatureGateTarget {
    return {
      versions: () => {
        const hcp = this.context.client.get('hostedcontrolplanes', this.options.name, this.namespace);
        const status = (hcp?.status as { versionStatus?: VersionStatusView } | undefined)?.versionStatus;
        const desired = status?.desired?.version;
        return desired ? { desired, history: status?.history ?? [] } : undefined;
      },
      present: () => this.listedVersions(),
      write: (manager, featureGates) => {
        this.parsedFg = undefined;
        const client = this.context.as(manager);
        const next = buildFeatureGateConfigMap(this.namespace, featureGates);
        const live = client.get('configmaps', FEATURE_GATE_CONFIGMAP, this.namespace);
        if (live)
          client.update('configmaps', { ...live, data: (next as unknown as { data: unknown }).data } as KubeObject);
        else client.create('configmaps', next);
      },
    };
  }

  /** Creates the HCP namespace's workloads at the running version and starts reconciling. */
  start(): void {
    const now = this.context.clock.now();
    const running = this.options.history[0].version;
    for (const [index, workload] of HCP_WORKLOADS.entries()) {
      const node = this.options.nodes[index % this.options.nodes.length];
      this.createWorkload(workload, running, node, now - 3 * HOUR);
      if (workload.component)
        createWithStatus(
          this.context.as(CPO),
          'controlplanecomponents',
          buildControlPlaneComponent(workload.name, this.namespace),
        );
    }
    this.writeStatus(now);
    this.writer.start();
    for (const name of Object.keys(FEATURE_GATE_CONSUMERS)) this.watchConsumer(name);
    this.context.clock.setInterval(() => this.reconcile(), this.options.resyncMs ?? 15 * SECOND);
  }

  private createWorkload(workload: HcpWorkload, version: string, node: string, createdMs: number): void {
    const hash = templateHash(this.context.random);
    const client = this.context.as(CPO);
    const deployment = buildHcpDeployment(workload, this.namespace, version, hash);
    // Only Deployments are served; the etcd StatefulSet exists through its pod.
    if (workload.kind === 'Deployment') {
      const existing = client.get('deployments', workload.name, this.namespace);
      if (existing)
        client.update('deployments', {
          ...deployment,
          metadata: { ...existing.metadata, annotations: deployment.metadata.annotations },
        });
      else client.create('deployments', deployment);
    }
    const name =
      workload.kind === 'StatefulSet'
        ? `${workload.name}-0`
        : `${workload.name}-${hash}-${randomSuffix(this.context.random)}`;
    const template = (
      deployment.spec as {
        template: {
          metadata: { labels: Record<string, string>; annotations: Record<string, string> };
          spec: { containers: { name: string; image: string }[] };
        };
      }
    ).template;
    const pod = buildPod({
      name,
      namespace: this.namespace,
      nodeName: node,
      labels: template.metadata.labels,
      annotations: template.metadata.annotations,
      containers: template.spec.containers,
      ownerReferences: [
        workload.kind === 'StatefulSet'
          ? ownerRef('StatefulSet', workload.name, `${this.namespace}-${workload.name}`)
          : ownerRef('ReplicaSet', `${workload.name}-${hash}`, `${this.namespace}-${workload.name}-${hash}`),
      ],
      priorityClassName: 'hypershift-control-plane',
    });
    pod.status = podStatus(pod, 'Ready', {
      scheduledMs: createdMs,
      startedMs: createdMs + 4 * SECOND,
      readyMs: createdMs + 20 * SECOND,
      podIP: '10.128.2.17',
      hostIP: '10.0.131.4',
    });
    createWithStatus(this.context.as('kubelet'), 'pods', pod);
    this.workloads.set(workload.name, { version, pod: name, ready: true, key: '' });
  }

  private watchConsumer(name: string): void {
    const state = this.workloads.get(name);
    const workload = HCP_WORKLOADS.find((candidate) => candidate.name === name);
    if (!state || !workload) return;
    const pod = this.context.client.get('pods', state.pod, this.namespace);
    const consumer = new FeatureGateConsumerPods(this.context, {
      namespace: this.namespace,
      daemonSet: name,
      container: workload.containers[0],
      version: state.version,
      listedVersions: () => this.listedVersions(),
    });
    consumer.adopt([
      {
        name: state.pod,
        node: (pod?.spec as { nodeName?: string } | undefined)?.nodeName ?? '',
        createdMs: Date.parse(pod?.metadata.creationTimestamp ?? '') || this.context.clock.now(),
      },
    ]);
    this.consumers.set(name, consumer);
  }

  private target(): string | undefined {
    const hcp = this.context.client.get('hostedcontrolplanes', this.options.name, this.namespace);
    return versionOfTagImage((hcp?.spec as { releaseImage?: string } | undefined)?.releaseImage);
  }

  /**
   * Reads pod readiness back from the API: every reconcile for the FeatureGate consumers (the only pods whose
   * readiness the story changes), every fourth for the rest (a pod deleted by hand is noticed within a minute).
   */
  private refreshReadiness(): void {
    const all = this.reconciles++ % 4 === 0;
    for (const [name, state] of this.workloads) {
      if (!all && !(name in FEATURE_GATE_CONSUMERS)) continue;
      const pod = this.context.client.get('pods', state.pod, this.namespace);
      const statuses =
        (pod?.status as { containerStatuses?: { ready?: boolean }[] } | undefined)?.containerStatuses ?? [];
      state.ready = statuses.length > 0 && statuses.every((status) => status.ready);
    }
  }

  /** One reconcile: readiness, one rollout step, then status. */
  reconcile(): void {
    const now = this.context.clock.now();
    this.refreshReadiness();
    const target = this.target();
    const allReady = [...this.workloads.values()].every((state) => state.ready);
    if (target && allReady) {
      const next = HCP_WORKLOADS.find((workload) => this.workloads.get(workload.name)?.version !== target);
      if (next) this.roll(next, target);
    }
    this.writeStatus(now);
  }

  private roll(workload: HcpWorkload, version: string): void {
    const state = this.workloads.get(workload.name);
    if (!state) return;
    const node =
      (this.context.client.get('pods', state.pod, this.namespace)?.spec as { nodeName?: string } | undefined)
        ?.nodeName ?? this.options.nodes[0];
    this.context.as('kube-controller-manager').delete('pods', state.pod, this.namespace);
    this.consumers.get(workload.name)?.forget(state.pod);
    this.createWorkload(workload, version, node, this.context.clock.now());
    if (workload.name in FEATURE_GATE_CONSUMERS) this.watchConsumer(workload.name);
    if (workload.name === 'kube-apiserver' && this.options.replaceFeatureGatesOnUpdate) {
      // The incoming control-plane operator rendered the FeatureGate for its own payload only; the new
      // kube-apiserver's bootstrap applies it, and every operator still on the old release now misses its version.
      this.writer.setMode('hypershift-replace');
    }
  }

  private writeStatus(now: number): void {
    const target = this.target() ?? this.options.history[0].version;
    const client = this.context.as(CPO);
    const unavailable: string[] = [];
    for (const workload of HCP_WORKLOADS) {
      const state = this.workloads.get(workload.name);
      if (!state) continue;
      if (!state.ready) unavailable.push(workload.name);
      const key = `${state.version}|${state.ready}|${state.pod}`;
      if (key === state.key) continue;
      state.key = key;
      if (workload.kind === 'Deployment') {
        mutateStatus(client, 'deployments', workload.name, this.namespace, (status: Record<string, unknown>, live) => ({
          ...status,
          observedGeneration: live.metadata.generation ?? 1,
          replicas: 1,
          updatedReplicas: 1,
          readyReplicas: state.ready ? 1 : 0,
          availableReplicas: state.ready ? 1 : 0,
          ...(state.ready ? {} : { unavailableReplicas: 1 }),
          conditions: setCondition(
            setCondition(
              (status.conditions as Condition[] | undefined) ?? [],
              state.ready
                ? ({
                    type: 'Available',
                    status: 'True',
                    reason: 'MinimumReplicasAvailable',
                    message: 'Deployment has minimum availability.',
                    lastUpdateTime: iso(now),
                  } as Condition)
                : ({
                    type: 'Available',
                    status: 'False',
                    reason: 'MinimumReplicasUnavailable',
                    message: 'Deployment does not have minimum availability.',
                    lastUpdateTime: iso(now),
                  } as Condition),
              now,
            ),
            {
              type: 'Progressing',
              status: 'True',
              reason: 'NewReplicaSetAvailable',
              message: `ReplicaSet "${state.pod.split('-').slice(0, -1).join('-')}" has successfully progressed.`,
              lastUpdateTime: iso(now),
            } as Condition,
            now,
          ),
        }));
      }
      if (workload.component) {
        mutateStatus(
          client,
          'controlplanecomponents',
          workload.name,
          this.namespace,
          (status: Record<string, unknown>) => {
            const conditions = (status.conditions as Condition[] | undefined) ?? [];
            const available = state.ready
              ? hsCondition('Available', 'True', 'AsExpected', '', now)
              : hsCondition(
                  'Available',
                  'False',
                  'MinimumReplicasUnavailable',
                  'Deployment does not have minimum availability.',
                  now,
                );
            const rollout = state.ready
              ? hsCondition('RolloutComplete', 'True', 'AsExpected', '', now)
              : hsCondition(
                  'RolloutComplete',
                  'False',
                  'WaitingForRolloutComplete',
                  `Waiting for deployment ${workload.name} rollout to finish: 0 out of 1 new replicas have been updated`,
                  now,
                );
            return {
              ...status,
              version: state.ready ? state.version : (status.version ?? state.version),
              conditions: setCondition(setCondition(conditions, available, now), rollout, now),
              resources: [{ group: 'apps', kind: workload.kind, name: workload.name }],
            };
          },
        );
      }
    }
    this.unavailableSince = unavailable.length ? (this.unavailableSince ?? now) : undefined;
    const updated = HCP_WORKLOADS.filter(
      (workload) => this.workloads.get(workload.name)?.version === target && this.workloads.get(workload.name)?.ready,
    ).length;
    mutateStatus(
      this.context.as(HCCO),
      'hostedcontrolplanes',
      this.options.name,
      this.namespace,
      (status: Record<string, unknown>) =>
        hostedControlPlaneStatus(status, {
          name: this.options.name,
          history: this.options.history,
          target,
          unavailable,
          updated,
          now,
          unavailableSince: this.unavailableSince,
        }),
    );
  }

  /** Whether a workload's pod is crash-looping on the FeatureGate. */
  crashLooping(name: string): boolean {
    return this.consumers.get(name)?.crashing ?? false;
  }
}
