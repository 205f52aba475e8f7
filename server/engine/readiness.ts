import 'server-only';
import { isDraining } from '@/server/observability/shutdown';
import { getFleet } from './fleet';

/** `/readyz` body. */
export interface Readiness {
  ready: boolean;
  clusters: number;
  /** Clusters whose first sync has not settled yet. */
  waiting: string[];
  /** Why the service cannot serve at all (configuration), or that it is shutting down. */
  error?: string;
}

/** Ready once every configured cluster synced or failed in a way only time or RBAC fixes; never with a bad configuration. */
export function readiness(): Readiness {
  if (isDraining()) return { ready: false, clusters: 0, waiting: [], error: 'shutting down' };
  try {
    const fleet = getFleet();
    const waiting = fleet.unsettled();
    return { ready: waiting.length === 0, clusters: fleet.ids().length, waiting };
  } catch (error) {
    return { ready: false, clusters: 0, waiting: [], error: error instanceof Error ? error.message : String(error) };
  }
}
