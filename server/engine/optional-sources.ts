import 'server-only';
import { RESOURCES, type ResourceInfo } from '@/lib/k8s/resources';
import type { ResourceNeed } from '@/lib/health/types';
import type { ClusterConnection } from '@/server/kube/connection';

/** How often an API that was not served is looked for again (CRDs get installed). */
export const OPTIONAL_PROBE_MS = 5 * 60_000;

function groupVersionPath(need: ResourceNeed): string {
  const info: ResourceInfo = RESOURCES[need.resource];
  return info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
}

/**
 * Needs on APIs only some clusters serve (HyperShift's): discovery (`GET /apis/<group>/<version>`) decides when to
 * start their watches, so a cluster that does not serve them shows no forever-pending source, and one that starts
 * serving them (CRDs installed later) is picked up at the next probe.
 */
export class OptionalSources {
  private pending: ResourceNeed[];
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    private readonly connection: ClusterConnection,
    needs: readonly ResourceNeed[],
    private readonly startWatch: (need: ResourceNeed) => void,
    private readonly intervalMs = OPTIONAL_PROBE_MS,
  ) {
    this.pending = [...needs];
  }

  start(): void {
    if (this.pending.length === 0) return;
    void this.probe();
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      for (const path of new Set(this.pending.map(groupVersionPath))) {
        const served = await this.served(path);
        if (!served) continue;
        const now = this.pending.filter((need) => groupVersionPath(need) === path && served.has(need.resource));
        this.pending = this.pending.filter((need) => !now.includes(need));
        for (const need of now) this.startWatch(need);
      }
      if (this.pending.length === 0) this.stop();
    } finally {
      this.probing = false;
    }
  }

  /** Resource names a group/version serves; undefined when it is not served or the cluster did not answer. */
  private async served(path: string): Promise<Set<string> | undefined> {
    try {
      const response = await this.connection.getText(path, { timeoutMs: 10_000 });
      if (response.status !== 200) return undefined;
      const list = JSON.parse(response.body) as { resources?: { name?: string }[] };
      return new Set((list.resources ?? []).flatMap((resource) => (resource.name ? [resource.name] : [])));
    } catch {
      // Unreachable or not JSON: the next probe tries again.
      return undefined;
    }
  }
}
