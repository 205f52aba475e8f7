import 'server-only';
import { RESOURCES, type ResourceInfo } from '@/lib/k8s/resources';
import type { ResourceNeed } from '@/lib/health/types';
import type { ClusterConnection } from '@/server/kube/connection';

/** How often an API that was not served is looked for again (CRDs get installed). */
export const OPTIONAL_PROBE_MS = 5 * 60_000;
/** First retry after the cluster did not answer discovery (busy or unreachable); doubles up to OPTIONAL_PROBE_MS. */
export const OPTIONAL_RETRY_MS = 5_000;

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
  private stopped = false;
  private retryMs: number;

  constructor(
    private readonly connection: ClusterConnection,
    needs: readonly ResourceNeed[],
    private readonly startWatch: (need: ResourceNeed) => void,
    private readonly intervalMs = OPTIONAL_PROBE_MS,
    private readonly firstRetryMs = OPTIONAL_RETRY_MS,
  ) {
    this.pending = [...needs];
    this.retryMs = firstRetryMs;
  }

  start(): void {
    if (this.pending.length === 0) return;
    void this.probe();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * A cluster that answered "not served" is asked again at the slow interval; one that did not answer (a busy or
   * restarting API server) is asked again soon, backing off, so its HyperShift objects do not wait minutes.
   */
  private schedule(unanswered: boolean): void {
    if (this.stopped || this.pending.length === 0) return;
    const delay = unanswered ? this.retryMs : this.intervalMs;
    this.retryMs = unanswered ? Math.min(this.retryMs * 2, this.intervalMs) : this.firstRetryMs;
    this.timer = setTimeout(() => void this.probe(), delay);
    this.timer.unref?.();
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    let unanswered = false;
    try {
      for (const path of new Set(this.pending.map(groupVersionPath))) {
        const served = await this.served(path);
        if (served === 'unanswered') unanswered = true;
        if (!(served instanceof Set)) continue;
        const now = this.pending.filter((need) => groupVersionPath(need) === path && served.has(need.resource));
        this.pending = this.pending.filter((need) => !now.includes(need));
        for (const need of now) this.startWatch(need);
      }
    } finally {
      this.probing = false;
    }
    this.schedule(unanswered);
  }

  /** Resource names a group/version serves; `not-served` on 404; `unanswered` when the cluster did not answer. */
  private async served(path: string): Promise<Set<string> | 'not-served' | 'unanswered'> {
    try {
      const response = await this.connection.getText(path, { timeoutMs: 10_000 });
      if (response.status === 404) return 'not-served';
      if (response.status !== 200) return 'unanswered';
      const list = JSON.parse(response.body) as { resources?: { name?: string }[] };
      return new Set((list.resources ?? []).flatMap((resource) => (resource.name ? [resource.name] : [])));
    } catch {
      // unreachable, timed out or not JSON
      return 'unanswered';
    }
  }
}
