/**
 * Test builders shaped on real captures (the `oc adm upgrade status` example inputs in
 * server/fixtures/oc-upgrade/status/, the OLMv1 manifests). They return plain JSON objects, never class instances,
 * and default only what a detector needs, so a test states just what matters to it.
 */
import type { Condition, KubeObject, ManagedFieldsEntry } from '@/lib/k8s/types';
import { DEFAULT_HEALTH_CONFIG, type DetectorContext, type Snapshot } from '@/lib/health/types';
import type { ResourceName } from '@/lib/k8s/resources';

/** A snapshot holding `objects` and optionally transitions, logs, probes and latency. */
export function makeSnapshot(
  objects: Partial<Record<ResourceName, readonly KubeObject[]>> = {},
  rest: Partial<Omit<Snapshot, 'objects'>> = {},
): Snapshot {
  return { objects, transitions: [], logs: [], probes: [], ...rest };
}

/** A detector context at `now` (RFC 3339) with the default thresholds, optionally overridden. */
export function makeContext(now: string, config: Partial<DetectorContext['config']> = {}): DetectorContext {
  return { now: Date.parse(now), config: { ...DEFAULT_HEALTH_CONFIG, ...config } };
}

/** One ClusterVersion `status.history[]` entry. */
export interface HistoryInput {
  version: string;
  state: 'Completed' | 'Partial';
  startedTime?: string;
  completionTime?: string | null;
  image?: string;
}

/** ClusterVersion `version`, shaped like `oc get clusterversion version -o yaml` (4.14.1-degraded-cv.yaml). */
export function makeClusterVersion(input: {
  desired: string;
  history: HistoryInput[];
  progressing?: boolean;
  generation?: number;
  observedGeneration?: number;
  enabledCapabilities?: string[];
  knownCapabilities?: string[];
  spec?: Record<string, unknown>;
  managedFields?: ManagedFieldsEntry[];
}): KubeObject {
  const image = (v: string): string =>
    `quay.io/openshift-release-dev/ocp-release@sha256:${v.replace(/\W/g, '').padEnd(64, '0')}`;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: {
      name: 'version',
      generation: input.generation ?? 3,
      ...(input.managedFields ? { managedFields: input.managedFields } : {}),
    },
    spec: { channel: 'stable-4.14', clusterID: 'fb4b77e5-f288-49ad-b9e6-dfd20426e470', ...input.spec },
    status: {
      ...(input.enabledCapabilities
        ? {
            capabilities: {
              enabledCapabilities: input.enabledCapabilities,
              knownCapabilities: input.knownCapabilities ?? input.enabledCapabilities,
            },
          }
        : {}),
      conditions: [
        { type: 'Available', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        {
          type: 'Progressing',
          status: input.progressing ? 'True' : 'False',
          lastTransitionTime: '2024-01-01T00:00:00Z',
        },
      ],
      desired: { version: input.desired, image: image(input.desired) },
      history: input.history.map((h) => ({
        completionTime: h.completionTime ?? (h.state === 'Completed' ? '2024-01-01T00:00:00Z' : null),
        image: h.image ?? image(h.version),
        startedTime: h.startedTime ?? '2024-01-01T00:00:00Z',
        state: h.state,
        verified: true,
        version: h.version,
      })),
      observedGeneration: input.observedGeneration ?? input.generation ?? 3,
    },
  };
}

/** A ClusterOperator reporting `version` as its `operator` version, Available and not Degraded by default. */
export function makeClusterOperator(name: string, version: string, conditions?: Condition[]): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name },
    spec: {},
    status: {
      conditions: conditions ?? [
        { type: 'Available', status: 'True', reason: 'AsExpected', lastTransitionTime: '2024-01-01T00:00:00Z' },
        { type: 'Degraded', status: 'False', reason: 'AsExpected', lastTransitionTime: '2024-01-01T00:00:00Z' },
      ],
      versions: [{ name: 'operator', version }],
    },
  };
}

/** One container status of a pod projection. */
export interface ContainerInput {
  name: string;
  ready?: boolean;
  restartCount?: number;
  waiting?: { reason: string; message?: string };
  lastTerminated?: { exitCode: number; reason: string; message?: string; finishedAt?: string };
}

/** A pod projection: metadata, spec.nodeName, status.phase, status.containerStatuses. */
export function makePod(input: {
  namespace: string;
  name: string;
  nodeName?: string;
  labels?: Record<string, string>;
  phase?: string;
  containers: ContainerInput[];
}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: input.name, namespace: input.namespace, ...(input.labels ? { labels: input.labels } : {}) },
    spec: { nodeName: input.nodeName ?? 'ip-10-0-1-10.ec2.internal' },
    status: {
      phase: input.phase ?? 'Running',
      containerStatuses: input.containers.map((c) => ({
        name: c.name,
        ready: c.ready ?? !c.waiting,
        restartCount: c.restartCount ?? 0,
        state: c.waiting ? { waiting: c.waiting } : { running: { startedAt: '2024-01-01T00:00:00Z' } },
        lastState: c.lastTerminated ? { terminated: c.lastTerminated } : {},
      })),
    },
  };
}

/** A Lease as written by controller-runtime leader election (`holderIdentity` = `<pod name>_<uuid>`). */
export function makeLease(input: {
  namespace: string;
  name: string;
  holderPod: string;
  renewTime: string;
  leaseDurationSeconds?: number;
}): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: input.name, namespace: input.namespace },
    spec: {
      holderIdentity: `${input.holderPod}_0d3b5c8e-6a7f-4c1e-9a55-2f1e7f0c9b11`,
      leaseDurationSeconds: input.leaseDurationSeconds ?? 137,
      renewTime: input.renewTime,
    },
  };
}

/** Sets Deployment status as the deployment controller would report it. */
export function withDeploymentStatus(
  deployment: KubeObject,
  status: { replicas: number; readyReplicas?: number; availableReplicas?: number; updatedReplicas?: number },
): KubeObject {
  return { ...deployment, status: { observedGeneration: 1, ...status } };
}

/** Sets PodDisruptionBudget status as the disruption controller would report it. */
export function withPdbStatus(
  pdb: KubeObject,
  status: { currentHealthy: number; desiredHealthy: number; disruptionsAllowed: number; expectedPods: number },
): KubeObject {
  return { ...pdb, status: { observedGeneration: 1, ...status } };
}
