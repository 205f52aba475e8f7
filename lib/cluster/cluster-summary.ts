/**
 * The fleet row of a cluster (standalone, management or hosted): what the fleet table, the live stream's summary
 * patches and the per-viewer filter all derive from the cluster's health.
 */
import type { ClusterHealthDto, ClusterSummaryDto, FindingDto } from '@/lib/api/dto';
import { compareFindings as worstFirst, speaksForCluster } from '@/lib/health/finding-order';
import { worstSeverity } from '@/lib/health/severity';
import { rowSourcesOf } from './row-sources';
import { updateStateOfHealth } from './update-state';

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
    sources: rowSourcesOf(sources),
    ...(health.activity ? { activity: health.activity } : {}),
    role: cluster.role ?? 'standalone',
    channel: cluster.channel,
    ...(cluster.managedBy ? { managedBy: cluster.managedBy } : {}),
    ...(cluster.discoveredBy ? { discoveredBy: cluster.discoveredBy } : {}),
    ...(cluster.reachability ? { reachability: cluster.reachability } : {}),
  };
}
