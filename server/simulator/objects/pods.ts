import type { KubeObject, OwnerReference } from '@/lib/k8s/types';
import { iso } from './time';

/** A container of a simulated pod. */
export interface ContainerInput {
  name: string;
  image: string;
  ports?: { containerPort: number; name?: string; protocol?: string }[];
  args?: string[];
}

/** Inputs of a Pod. */
export interface PodInput {
  name: string;
  namespace: string;
  nodeName: string;
  labels: Record<string, string>;
  containers: ContainerInput[];
  ownerReferences?: OwnerReference[];
  annotations?: Record<string, string>;
  priorityClassName?: string;
  hostNetwork?: boolean;
  tolerations?: Record<string, unknown>[];
  nodeSelector?: Record<string, string>;
  terminationGracePeriodSeconds?: number;
}

/** A Pod object (spec and metadata); status is set with one of the status helpers below. */
export function buildPod(input: PodInput): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: input.labels,
      ...(input.annotations ? { annotations: input.annotations } : {}),
      ...(input.ownerReferences ? { ownerReferences: input.ownerReferences } : {}),
    },
    spec: {
      containers: input.containers.map((container) => ({
        name: container.name,
        image: container.image,
        imagePullPolicy: 'IfNotPresent',
        ...(container.args ? { args: container.args } : {}),
        ...(container.ports ? { ports: container.ports.map((port) => ({ protocol: 'TCP', ...port })) } : {}),
        terminationMessagePolicy: 'FallbackToLogsOnError',
      })),
      nodeName: input.nodeName,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: input.terminationGracePeriodSeconds ?? 30,
      ...(input.priorityClassName ? { priorityClassName: input.priorityClassName } : {}),
      ...(input.hostNetwork ? { hostNetwork: true } : {}),
      ...(input.nodeSelector ? { nodeSelector: input.nodeSelector } : {}),
      ...(input.tolerations ? { tolerations: input.tolerations } : {}),
    },
  };
}

/** Pod phase and readiness states the simulation moves pods through. */
export type PodState = 'Pending' | 'ContainerCreating' | 'Running' | 'Ready' | 'CrashLoopBackOff';

/** Extra facts for a CrashLoopBackOff status. */
export interface CrashInfo {
  restartCount: number;
  lastStartedMs: number;
  lastFinishedMs: number;
  backoffSeconds: number;
  message: string;
}

/**
 * status of a pod in `state`. `sinceMs` is when the pod was scheduled, `readyMs` when it became ready (Ready state),
 * `notReadyMs` when a once-ready pod stopped being ready, `podIP` its address.
 */
export function podStatus(
  pod: KubeObject,
  state: PodState,
  times: {
    scheduledMs: number;
    startedMs?: number;
    readyMs?: number;
    notReadyMs?: number;
    podIP?: string;
    hostIP?: string;
  },
  crash?: CrashInfo,
): Record<string, unknown> {
  const spec = pod.spec as { containers: { name: string; image: string }[] };
  const scheduled = iso(times.scheduledMs);
  const started = times.startedMs !== undefined ? iso(times.startedMs) : undefined;
  const ready = state === 'Ready';
  const running = state === 'Running' || state === 'Ready';
  const phase = state === 'Pending' || state === 'ContainerCreating' ? 'Pending' : 'Running';
  // A pod that was ready and stopped (a crash loop) changed Ready at its first failure, as the kubelet records it.
  const conditionTime =
    ready && times.readyMs !== undefined
      ? iso(times.readyMs)
      : !ready && times.notReadyMs !== undefined
        ? iso(times.notReadyMs)
        : (started ?? scheduled);
  const conditions: Record<string, unknown>[] = [
    {
      type: 'PodReadyToStartContainers',
      status: state === 'Pending' ? 'False' : 'True',
      lastProbeTime: null,
      lastTransitionTime: started ?? scheduled,
    },
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: scheduled },
    {
      type: 'Ready',
      status: ready ? 'True' : 'False',
      lastProbeTime: null,
      lastTransitionTime: conditionTime,
      ...(ready
        ? {}
        : {
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${spec.containers.map((c) => c.name).join(' ')}]`,
          }),
    },
    {
      type: 'ContainersReady',
      status: ready ? 'True' : 'False',
      lastProbeTime: null,
      lastTransitionTime: conditionTime,
      ...(ready
        ? {}
        : {
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${spec.containers.map((c) => c.name).join(' ')}]`,
          }),
    },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: scheduled },
  ];
  const containerStatuses = spec.containers.map((container, index) => {
    const base = {
      name: container.name,
      image: container.image,
      imageID: state === 'Pending' || state === 'ContainerCreating' ? '' : container.image,
      ready: ready || (state === 'CrashLoopBackOff' && index > 0),
      restartCount: index === 0 && crash ? crash.restartCount : 0,
      started: running || (state === 'CrashLoopBackOff' && index > 0),
    };
    if (state === 'CrashLoopBackOff' && index === 0 && crash) {
      return {
        ...base,
        containerID: `cri-o://${container.name}-${crash.restartCount}`,
        lastState: {
          terminated: {
            containerID: `cri-o://${container.name}-${crash.restartCount}`,
            exitCode: 255,
            finishedAt: iso(crash.lastFinishedMs),
            message: crash.message,
            reason: 'Error',
            startedAt: iso(crash.lastStartedMs),
          },
        },
        state: {
          waiting: {
            message: `back-off ${formatBackoff(crash.backoffSeconds)} restarting failed container=${container.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid ?? ''})`,
            reason: 'CrashLoopBackOff',
          },
        },
      };
    }
    if (state === 'Pending' || state === 'ContainerCreating') {
      return { ...base, lastState: {}, state: { waiting: { reason: 'ContainerCreating' } } };
    }
    return {
      ...base,
      containerID: `cri-o://${container.name}`,
      lastState: {},
      state: { running: { startedAt: started ?? scheduled } },
    };
  });
  return {
    phase,
    conditions,
    hostIP: times.hostIP,
    ...(times.podIP && state !== 'Pending' ? { podIP: times.podIP, podIPs: [{ ip: times.podIP }] } : {}),
    startTime: scheduled,
    qosClass: 'Burstable',
    containerStatuses,
  };
}

/** Go duration string of a back-off (`40s`, `2m40s`, `5m0s`). */
function formatBackoff(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

/** An owner reference to a ReplicaSet / DaemonSet (uids are deterministic strings from the caller). */
export function ownerRef(kind: 'ReplicaSet' | 'DaemonSet' | 'StatefulSet', name: string, uid: string): OwnerReference {
  return { apiVersion: 'apps/v1', kind, name, uid, controller: true, blockOwnerDeletion: true } as OwnerReference;
}
