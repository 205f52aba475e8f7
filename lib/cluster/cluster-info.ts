/**
 * Cluster identity and version facts derived from the ClusterVersion object, as the API serves them.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterInfoDto, FindingDto, SeverityDto } from '@/lib/api/dto';
import { SEVERITY_ORDER } from '@/lib/health/types';

interface HistoryEntry {
  version?: string;
  state?: string;
  startedTime?: string | null;
  completionTime?: string | null;
  image?: string;
}

interface ClusterVersionShape {
  spec?: { channel?: string; desiredUpdate?: { version?: string } };
  status?: { desired?: { version?: string }; history?: HistoryEntry[] };
}

/**
 * Builds {@link ClusterInfoDto} from a ClusterVersion (or its absence). `version` is the newest Completed history
 * entry (history is newest first), falling back to the desired version; `desiredVersion` is status.desired.
 */
export function clusterInfo(id: string, name: string, clusterVersion: KubeObject | undefined): ClusterInfoDto {
  const cv = (clusterVersion ?? {}) as ClusterVersionShape;
  const history = (cv.status?.history ?? []).map((entry) => ({
    version: entry.version ?? '',
    state: entry.state ?? 'Unknown',
    startedTime: entry.startedTime ?? null,
    completionTime: entry.completionTime ?? null,
    image: entry.image ?? '',
  }));
  const desiredVersion = cv.status?.desired?.version ?? cv.spec?.desiredUpdate?.version ?? null;
  const completed = history.find((entry) => entry.state === 'Completed');
  return {
    id,
    name,
    version: completed?.version || desiredVersion,
    desiredVersion,
    channel: cv.spec?.channel ?? null,
    history,
  };
}

/** The worst severity among findings; `ok` when there are none. */
export function worstSeverity(findings: Pick<FindingDto, 'severity'>[]): SeverityDto {
  let worst = SEVERITY_ORDER.length - 1;
  for (const finding of findings) worst = Math.min(worst, SEVERITY_ORDER.indexOf(finding.severity));
  return SEVERITY_ORDER[worst];
}
