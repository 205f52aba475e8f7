/**
 * Cluster identity and version facts derived from the ClusterVersion object, as the API serves them.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { historyOf } from '@/lib/k8s/cluster-version';
import type { ClusterInfoDto } from '@/lib/api/dto';

interface ClusterVersionShape {
  spec?: { channel?: string; desiredUpdate?: { version?: string } };
  status?: { desired?: { version?: string } };
}

/**
 * Builds {@link ClusterInfoDto} from a ClusterVersion (or its absence). `version` is the newest Completed history
 * entry (history is newest first), falling back to the desired version; `desiredVersion` is status.desired.
 */
export function clusterInfo(id: string, name: string, clusterVersion: KubeObject | undefined): ClusterInfoDto {
  const cv = (clusterVersion ?? {}) as ClusterVersionShape;
  const history = historyOf(clusterVersion).map((entry) => ({
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
