/**
 * One hosted cluster, two views: its own kubeconfig context (ClusterVersion, FeatureGate, pods inside) and its
 * management cluster (HostedCluster, NodePools, the HCP namespace). When both are configured they are the same
 * fleet member: the HostedCluster's `spec.clusterID` is the hosted ClusterVersion's `spec.clusterID`.
 */
import type { ClusterHealthDto, ClusterSummaryDto, FindingDto } from '@/lib/api/dto';
import { compareFindings as worstFirst, speaksForCluster } from '@/lib/health/finding-order';
import { worstSeverity } from './cluster-info';
import { updateStateOf, updateStateOfHealth } from './update-state';

/** Health of the joined member: the own view, plus the management view's findings, control plane and worker pools. */
export function joinHealth(own: ClusterHealthDto, fromManagement: ClusterHealthDto): ClusterHealthDto {
  const ids = new Set(own.findings.map((finding) => finding.id));
  const findings = [...own.findings, ...fromManagement.findings.filter((finding) => !ids.has(finding.id))].sort(
    worstFirst,
  );
  const updateProgress = own.updateProgress
    ? {
        ...own.updateProgress,
        // The hosted cluster has no MachineConfigPools of its own: its workers are the NodePools.
        workerPools: own.updateProgress.workerPools.length
          ? own.updateProgress.workerPools
          : (fromManagement.updateProgress?.workerPools ?? []),
      }
    : fromManagement.updateProgress;
  const updateState = updateStateOf({
    progress: updateProgress,
    history: own.cluster.history,
    requestedVersion: own.cluster.desiredVersion,
    findings,
    ...(own.updateState?.operatorVersions ? { operatorVersions: own.updateState.operatorVersions } : {}),
  });
  return {
    ...own,
    cluster: {
      ...own.cluster,
      role: 'hosted',
      ...(fromManagement.cluster.managedBy ? { managedBy: fromManagement.cluster.managedBy } : {}),
    },
    findings,
    updateProgress,
    updateState,
    ...(fromManagement.hosted ? { hosted: fromManagement.hosted } : {}),
  };
}

function worstFindingOf(findings: readonly FindingDto[]): Pick<ClusterSummaryDto, 'worstFinding'> {
  const worst = findings.filter(speaksForCluster).sort(worstFirst)[0];
  return worst
    ? { worstFinding: { id: worst.id, detector: worst.detector, severity: worst.severity, title: worst.title } }
    : {};
}

/** A fleet row from a cluster's health. */
export function summaryOf(health: ClusterHealthDto): ClusterSummaryDto {
  const { cluster, findings, sources } = health;
  const state = updateStateOfHealth(health);
  return {
    id: cluster.id,
    name: cluster.name,
    version: cluster.version,
    desiredVersion: cluster.desiredVersion,
    updating: state.phase !== 'idle' && state.phase !== 'unknown',
    updatePhase: state.phase,
    updateLabel: state.label,
    worstSeverity: worstSeverity(findings.filter(speaksForCluster)),
    ...worstFindingOf(findings),
    findingCounts: {
      critical: findings.filter((f) => f.severity === 'critical').length,
      warning: findings.filter((f) => f.severity === 'warning').length,
      info: findings.filter((f) => f.severity === 'info').length,
    },
    sources,
    ...(health.activity ? { activity: health.activity } : {}),
    role: cluster.role ?? 'standalone',
    channel: cluster.channel,
    ...(cluster.managedBy ? { managedBy: cluster.managedBy } : {}),
  };
}
