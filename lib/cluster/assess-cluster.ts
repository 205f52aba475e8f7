/**
 * One assessment of a cluster from a snapshot: findings, update progress and identity, exactly as the API serves
 * them. The live engine, must-gather analysis and incidents all go through here, so they cannot disagree.
 */
import type { ClusterHealthDto, ClusterRoleDto, SourceStateDto } from '@/lib/api/dto';
import type { Detector, DetectorContext, DetectorId, Snapshot } from '@/lib/health/types';
import { DETECTORS } from '@/lib/health/registry';
import { evaluate } from '@/lib/health/evaluate';
import { snapshotUpdateProgress } from '@/lib/health/update-progress/update-progress';
import { computeHostedUpdateProgress } from '@/lib/health/update-progress/hosted-update-progress';
import { computeRecommendations } from '@/lib/recommend/recommend';
import { withPredictions } from '@/lib/recommend/predict-targets';
import type { AlertEvidence } from '@/lib/recommend/alert-prechecks';
import { operatorVersion } from '@/lib/health/update-progress/control-plane';
import { asString, dig } from '@/lib/health/shared/objects';
import type { KubeObject } from '@/lib/k8s/types';
import { clusterInfo } from './cluster-info';
import { unreadCause, updateStateOf, withStaleSummary, type DataOrigin } from './update-state';
import { hostedClusterInfo, hostedDetails } from './hosted-details';

/** Input of {@link assessCluster}. */
export interface AssessmentInput {
  id: string;
  name: string;
  snapshot: Snapshot;
  context: DetectorContext;
  sources: SourceStateDto[];
  detectors?: readonly Detector[];
  /**
   * `hosted` with `managedBy` for a hosted part of a management snapshot (see hosted-views); otherwise the role
   * follows from the data (HostedClusters on the cluster make it a management cluster).
   */
  role?: ClusterRoleDto;
  managedBy?: string;
  /** HostedClusters found on the cluster (its own snapshot has them split off). */
  hostedClusterCount?: number;
  /** What is known about alerts for the recommend prechecks; default: the snapshot's alerts, else "could not read". */
  alertEvidence?: AlertEvidence;
  /** Where the snapshot came from, so missing data is said to be missing there; default `cluster`. */
  origin?: DataOrigin;
}

/** ClusterOperators per observed `operator` version, most first. */
function operatorVersions(operators: readonly KubeObject[]): { version: string; operators: number }[] {
  const counts = new Map<string, number>();
  for (const co of operators) {
    const version = operatorVersion(co) || 'unknown';
    counts.set(version, (counts.get(version) ?? 0) + 1);
  }
  return [...counts].map(([version, n]) => ({ version, operators: n })).sort((a, b) => b.operators - a.operators);
}

/** No alerts in a live snapshot means the alerts source did not answer. */
function alertEvidenceOf(snapshot: Snapshot): AlertEvidence {
  if (snapshot.alerts) return { kind: 'alerts', alerts: snapshot.alerts };
  if (snapshot.idle) {
    return {
      kind: 'error',
      message: 'alerts are polled only while the cluster is active (updating, with a finding, or looked at)',
    };
  }
  return { kind: 'error', message: 'no alerts source answered (thanos-querier in openshift-monitoring)' };
}

/** The served health plus the detectors' numeric samples at `context.now`. */
export interface Assessment {
  health: ClusterHealthDto;
  samples: Partial<Record<DetectorId, Record<string, number | null>>>;
}

/** Assesses a cluster snapshot. Pure: the same input gives the same output. */
export function assessCluster(input: AssessmentInput): Assessment {
  const { snapshot, context } = input;
  const { findings, samples, derived } = evaluate(snapshot, context, input.detectors ?? DETECTORS);
  const clusterVersion = snapshot.objects.clusterversions?.find((object) => object.metadata.name === 'version');
  const hostedClusters = snapshot.objects.hostedclusters ?? [];
  const hostedCluster = !clusterVersion && hostedClusters.length === 1 ? hostedClusters[0] : undefined;
  const onlyNodePools = !clusterVersion && hostedClusters.length === 0 && (snapshot.objects.nodepools?.length ?? 0) > 0;
  if (hostedCluster || onlyNodePools) {
    const details = hostedDetails(snapshot);
    const updateProgress = computeHostedUpdateProgress(
      hostedCluster,
      (snapshot.objects.controlplanecomponents ?? []).filter((cpc) => cpc.metadata.namespace === details?.hcpNamespace),
      snapshot.objects.nodepools ?? [],
      context.now,
    );
    const cluster = {
      ...hostedClusterInfo(input.id, input.name, hostedCluster),
      ...(input.managedBy ? { managedBy: input.managedBy } : {}),
    };
    const updateState = updateStateOf({
      progress: updateProgress,
      history: cluster.history,
      requestedVersion: cluster.desiredVersion,
      findings,
      origin: input.origin,
      versionObject: 'HostedCluster',
      ...(hostedCluster
        ? {}
        : {
            unknown: { kind: 'missing', what: 'HostedCluster', where: input.origin ?? 'cluster' },
          }),
    });
    const health: ClusterHealthDto = {
      cluster,
      findings,
      updateProgress,
      updateState,
      updateRecommendations: null,
      sources: input.sources,
      ...(details ? { hosted: details } : {}),
    };
    return { health, samples };
  }
  // A hosted cluster seen from inside runs its control plane elsewhere: its Infrastructure says so.
  const infrastructure = snapshot.objects.infrastructures?.find((object) => object.metadata.name === 'cluster');
  const external =
    (infrastructure?.status as { controlPlaneTopology?: string } | undefined)?.controlPlaneTopology === 'External';
  const role: ClusterRoleDto =
    input.role ?? ((input.hostedClusterCount ?? 0) > 0 ? 'management' : external ? 'hosted' : 'standalone');
  // The update-progress detector's own progress, unless the caller ran without it.
  const updateProgress = clusterVersion
    ? (derived?.updateProgress ?? snapshotUpdateProgress(snapshot, context.now))
    : null;
  const info = clusterInfo(input.id, input.name, clusterVersion);
  const updateState = updateStateOf({
    progress: updateProgress,
    history: info.history,
    findings,
    origin: input.origin,
    requestedVersion: asString(dig(clusterVersion, 'spec', 'desiredUpdate', 'version')) ?? info.desiredVersion,
    operatorVersions: operatorVersions(snapshot.objects.clusteroperators ?? []),
    // A live cluster's ClusterVersion absent before its source was ever read is unread, not missing.
    ...(clusterVersion || input.origin === 'must-gather'
      ? {}
      : { unknown: unreadCause(input.sources, 'clusterversions', 'ClusterVersion') }),
  });
  const updateRecommendations = clusterVersion
    ? withPredictions(
        computeRecommendations(clusterVersion, input.alertEvidence ?? alertEvidenceOf(snapshot)),
        snapshot,
        updateState,
      )
    : null;
  return {
    health: {
      cluster: { ...info, role, ...(input.managedBy ? { managedBy: input.managedBy } : {}) },
      findings: withStaleSummary(findings, updateState),
      updateProgress,
      updateState,
      updateRecommendations,
      sources: input.sources,
    },
    samples,
  };
}
