import type { Condition } from '@/lib/k8s/types';
import { setCondition } from '../objects/conditions';
import { FEATURE_GATE_CONSUMERS, HCP_WORKLOADS } from '../objects/hcp-workloads';
import { hsCondition, releaseTagImage } from '../objects/hypershift';
import { MINUTE, iso } from '../objects/time';

/** Guest CVO manifests a payload has (progress messages count them). */
const PAYLOAD_MANIFESTS = 616;
/** How long the guest CVO waits on unavailable ClusterOperators before it reports Failing. */
const FAILING_AFTER_MS = 5 * MINUTE;

/** One entry of HostedControlPlane status.versionStatus.history. */
export interface HcpHistoryEntry {
  version: string;
  state: 'Completed' | 'Partial';
  startedMs: number;
  completedMs?: number;
}

/** What the hosted control plane's status is computed from. */
export interface StatusInput {
  name: string;
  /** The history the control plane was created with (newest first). */
  history: HcpHistoryEntry[];
  /** Release of `spec.releaseImage`. */
  target: string;
  /** Workloads whose pod is not ready. */
  unavailable: string[];
  /** Workloads at the target release and ready. */
  updated: number;
  now: number;
  unavailableSince: number | undefined;
}

function historyItem(entry: HcpHistoryEntry): Record<string, unknown> {
  return {
    version: entry.version,
    image: releaseTagImage(entry.version),
    state: entry.state,
    verified: false,
    startedTime: iso(entry.startedMs),
    completionTime: entry.completedMs !== undefined ? iso(entry.completedMs) : null,
  };
}

/**
 * HostedControlPlane status as the HCCO (from the guest ClusterVersion) and the CPO write it: versionStatus with
 * history, controlPlaneVersion, and the conditions of CONDITIONS.md — Available=False ComponentsNotAvailable and
 * Degraded=True UnavailableReplicas naming the workloads, ClusterVersionProgressing with the CVO's progress
 * message, ClusterVersionFailing once the operators have been unavailable for five minutes.
 */
export function hostedControlPlaneStatus(status: Record<string, unknown>, input: StatusInput): Record<string, unknown> {
  const { target, unavailable, updated, now } = input;
  const versionStatus = (status.versionStatus as { history?: Record<string, unknown>[] } | undefined) ?? {};
  let history = versionStatus.history ?? input.history.map(historyItem);
  if (history[0]?.version !== target)
    history = [historyItem({ version: target, state: 'Partial', startedMs: now }), ...history];
  const done = updated === HCP_WORKLOADS.length;
  if (done && history[0].state === 'Partial')
    history = [{ ...history[0], state: 'Completed', completionTime: iso(now) }, ...history.slice(1)];
  const partial = history[0].state === 'Partial';
  const running = (history.find((entry) => entry.state === 'Completed')?.version as string | undefined) ?? target;
  const components = unavailable.filter((name) => HCP_WORKLOADS.find((workload) => workload.name === name)?.component);
  const operators = [
    ...new Set(unavailable.flatMap((name) => (FEATURE_GATE_CONSUMERS[name] ? [FEATURE_GATE_CONSUMERS[name]] : []))),
  ].sort();
  const failing =
    operators.length > 0 && input.unavailableSince !== undefined && now - input.unavailableSince >= FAILING_AFTER_MS;
  const percent = Math.floor((updated / HCP_WORKLOADS.length) * 100);
  const manifests = Math.floor((updated / HCP_WORKLOADS.length) * PAYLOAD_MANIFESTS);
  const unavailableMessages = unavailable.map((name) => `${name} deployment has 1 unavailable replicas`);
  let conditions = (status.conditions as Condition[] | undefined) ?? [];
  const set = (condition: Condition) => {
    conditions = setCondition(conditions, condition, now);
  };
  set(
    hsCondition('ValidHostedControlPlaneConfiguration', 'True', 'AsExpected', 'Configuration passes validation', now),
  );
  set(hsCondition('EtcdAvailable', 'True', 'QuorumAvailable', '', now));
  set(hsCondition('KubeAPIServerAvailable', 'True', 'AsExpected', 'Kube APIServer deployment is available', now));
  set(hsCondition('InfrastructureReady', 'True', 'AsExpected', 'All is well', now));
  set(
    unavailable.length
      ? hsCondition(
          'Degraded',
          'True',
          'UnavailableReplicas',
          unavailableMessages.length === 1 ? unavailableMessages[0] : `[${unavailableMessages.join(', ')}]`,
          now,
        )
      : hsCondition('Degraded', 'False', 'AsExpected', '', now),
  );
  set(
    components.length
      ? hsCondition(
          'Available',
          'False',
          'ComponentsNotAvailable',
          `Waiting for components to be available: ${components.join(', ')}`,
          now,
        )
      : hsCondition('Available', 'True', 'AsExpected', '', now),
  );
  set(hsCondition('ClusterVersionAvailable', 'True', 'FromClusterVersion', `Done applying ${running}`, now));
  set(
    partial
      ? hsCondition(
          'ClusterVersionProgressing',
          'True',
          'FromClusterVersion',
          `Working towards ${target}: ${manifests} of ${PAYLOAD_MANIFESTS} done (${percent}% complete)${operators.length ? `, waiting on ${operators.join(', ')}` : ''}`,
          now,
        )
      : hsCondition('ClusterVersionProgressing', 'False', 'FromClusterVersion', `Cluster version is ${running}`, now),
  );
  set(
    failing
      ? hsCondition(
          'ClusterVersionFailing',
          'True',
          operators.length === 1 ? 'ClusterOperatorNotAvailable' : 'ClusterOperatorsNotAvailable',
          operators.length === 1
            ? `Cluster operator ${operators[0]} is not available`
            : `Cluster operators ${operators.join(', ')} are not available`,
          now,
        )
      : hsCondition('ClusterVersionFailing', 'False', 'AsExpected', '', now),
  );
  set(hsCondition('ClusterVersionUpgradeable', 'True', 'FromClusterVersion', '', now));
  set(
    hsCondition(
      'ClusterVersionReleaseAccepted',
      'True',
      'PayloadLoaded',
      `Payload loaded version="${target}" image="${releaseTagImage(target)}" architecture="amd64"`,
      now,
    ),
  );
  return {
    ...status,
    ready: true,
    initialized: true,
    version: running,
    releaseImage: releaseTagImage(target),
    controlPlaneEndpoint: { host: `a${input.name.replace(/[^a-z0-9]/g, '')}.elb.us-east-1.amazonaws.com`, port: 6443 },
    versionStatus: {
      desired: { image: releaseTagImage(target), version: target },
      history,
      observedGeneration: 1,
      availableUpdates: null,
    },
    // Management-side component versions; the simulated CPO rolls exactly what the payload lists, so they match.
    controlPlaneVersion: {
      desired: { image: releaseTagImage(target), version: target },
      history: history.map(({ version, image, state, startedTime, completionTime }) => ({
        version,
        image,
        state,
        startedTime,
        ...(completionTime ? { completionTime } : {}),
      })),
      observedGeneration: 1,
    },
    conditions,
  };
}
