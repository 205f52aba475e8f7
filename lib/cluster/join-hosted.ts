/**
 * One hosted cluster, two views: its own kubeconfig context (ClusterVersion, FeatureGate, pods inside) and its
 * management cluster (HostedCluster, NodePools, the HCP namespace). When both are configured they are the same
 * fleet member: the HostedCluster's `spec.clusterID` is the hosted ClusterVersion's `spec.clusterID`.
 */
import type { ClusterHealthDto } from '@/lib/api/dto';
import { compareFindings as worstFirst } from '@/lib/health/finding-order';
import { updateStateOf } from './update-state';

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
