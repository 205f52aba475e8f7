import 'server-only';
import type { ClusterHealthDto, FindingDto, UpdateProgressDto } from '@/lib/api/dto';
import type { ObjectRef } from '@/lib/k8s/types';
import type { OfflineAnalysis } from './analyze-offline';

const NOW_SOURCE = {
  option: '--now',
  timestamp: 'must-gather timestamp',
  objects: 'newest object time',
  clock: 'current time',
};

function subject(ref: ObjectRef): string {
  return `${ref.kind}/${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

function duration(seconds: number | null): string {
  if (seconds === null) return '?';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

function progressLines(progress: UpdateProgressDto | null): string[] {
  if (!progress) return ['Update progress: no ClusterVersion in the input'];
  const cp = progress.controlPlane;
  const lines = [`Update progress: ${progress.updating ? 'updating' : 'not updating'}`];
  const from = cp.previousVersion ? ` from ${cp.previousVersion}` : '';
  lines.push(
    `  Control plane: ${cp.assessment}, ${cp.targetVersion ?? '?'}${from}, ${cp.completionPercent}% ` +
      `(${cp.operators.updated}/${cp.operators.total} operators updated, ${cp.operators.updating} updating), ` +
      `duration ${duration(cp.durationSeconds)}`,
  );
  lines.push(
    `  Operator health: ${cp.health.healthy} healthy, ${cp.health.unavailable} unavailable, ${cp.health.degraded} degraded`,
  );
  for (const pool of progress.workerPools) {
    lines.push(
      `  Pool ${pool.name}: ${pool.assessment}, ${pool.completionPercent}% (${pool.updatedNodes}/${pool.totalNodes} nodes)`,
    );
  }
  for (const insight of progress.insights) lines.push(`  ${insight.level} [${insight.impact}] ${insight.message}`);
  return lines;
}

function findingLines(findings: FindingDto[]): string[] {
  if (findings.length === 0) return ['Findings: none'];
  const lines = [`Findings (${findings.length}):`];
  for (const finding of findings) {
    lines.push(`  ${finding.severity.toUpperCase().padEnd(8)} ${finding.title}`);
    lines.push(`           ${finding.summary}`);
    lines.push(`           subject: ${subject(finding.subject)}${finding.since ? `, since ${finding.since}` : ''}`);
  }
  return lines;
}

/** The analysis as plain text for a terminal: cluster facts, update progress, then findings worst first. */
function hostedLines(health: ClusterHealthDto): string[] {
  const { cluster, hosted } = health;
  const history = cluster.history.map((entry) => `${entry.version || '?'} ${entry.state}`).join(', ');
  const lines = [
    `Hosted cluster ${hosted ? `${hosted.namespace}/${hosted.name}` : cluster.name}: version ${cluster.version ?? '?'}, ` +
      `desired ${cluster.desiredVersion ?? '?'}${history ? `; history ${history}` : ''}`,
  ];
  for (const pool of hosted?.nodePools ?? []) {
    lines.push(
      `  NodePool ${pool.name}: ${pool.currentNodes ?? '?'}/${pool.desiredNodes ?? '?'} nodes, version ${pool.version ?? '?'}` +
        `${pool.updating ? `, updating to ${pool.targetVersion ?? '?'}` : ''}${pool.message ? ` (${pool.message})` : ''}`,
    );
  }
  lines.push(
    ...progressLines(health.updateProgress).map((line) => `  ${line}`),
    ...findingLines(health.findings).map((line) => `  ${line}`),
  );
  return lines;
}

export function formatAnalysis({ health, hosted, offline }: OfflineAnalysis): string {
  const { cluster } = health;
  const lines = [
    `Cluster ${cluster.name}: version ${cluster.version ?? '?'}, desired ${cluster.desiredVersion ?? '?'}, channel ${cluster.channel ?? '-'}`,
    `Analyzed as of ${new Date(offline.now).toISOString()} (${NOW_SOURCE[offline.nowSource]}); ${offline.stats.objects} objects ` +
      `of ${offline.resources.length} kinds, ${offline.snapshot.logs.length} log excerpts, ${offline.alerts.length} alerts`,
  ];
  for (const warning of offline.warnings) lines.push(`  skipped: ${warning}`);
  // Loose HostedCluster/NodePool dumps have nothing of the management cluster itself to report.
  const onlyHosted = hosted.length > 0 && !offline.snapshot.objects.clusterversions?.length;
  if (onlyHosted) lines.splice(0, 1);
  else lines.push('', ...progressLines(health.updateProgress), '', ...findingLines(health.findings));
  lines.push('');
  for (const entry of hosted) lines.push(...hostedLines(entry), '');
  return lines.join('\n');
}
