import 'server-only';
import type { KubeList } from '@/lib/k8s/types';
import type { LogExcerpt, LogNeed } from '@/lib/health/types';
import type { ClusterConnection } from '@/server/kube/connection';

const POLL_MS = 10_000;
const MAX_PODS_PER_NEED = 3;

/**
 * Keeps the tail of the container logs detectors asked for (e.g. the cluster-version operator's), polling with
 * read-only GETs. Failures (forbidden, pod gone) leave the last excerpt in place; logs are corroboration only.
 */
export class LogPoller {
  private readonly current = new Map<string, LogExcerpt>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private rounds = 0;
  /** Bumped on clear: a poll still in flight from before does not write into the cleared state. */
  private generation = 0;

  constructor(
    private readonly connection: ClusterConnection,
    private readonly needs: readonly LogNeed[],
    private readonly onChange: () => void,
    private readonly pollMs = POLL_MS,
  ) {}

  start(): void {
    if (this.timer || this.needs.length === 0) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** True once a first round of polls finished (answered or not): logs-corroborated findings had their chance. */
  polled(): boolean {
    return this.needs.length === 0 || this.rounds > 0;
  }

  /** Forgets every excerpt and round (a stopped tier frees what it read; a restart polls afresh). */
  clear(): void {
    this.generation += 1;
    this.current.clear();
    this.rounds = 0;
  }

  excerpts(): LogExcerpt[] {
    return [...this.current.values()];
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const generation = this.generation;
    let changed = false;
    try {
      for (const need of this.needs) {
        const ns = encodeURIComponent(need.namespace);
        const pods = await this.connection.getText(
          `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(need.labelSelector)}`,
        );
        if (pods.status !== 200) continue;
        const list = JSON.parse(pods.body) as KubeList;
        for (const pod of list.items.slice(0, MAX_PODS_PER_NEED)) {
          const name = pod.metadata.name;
          const log = await this.connection.getText(
            `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(name)}/log` +
              `?container=${encodeURIComponent(need.container)}&tailLines=${need.tailLines}`,
          );
          if (log.status !== 200 || generation !== this.generation) continue;
          const key = `${need.namespace}/${name}/${need.container}`;
          const lines = log.body.split('\n').filter((line) => line.length > 0);
          const before = this.current.get(key);
          if (before && before.lines.length === lines.length && before.lines.at(-1) === lines.at(-1)) continue;
          this.current.set(key, {
            ref: { apiVersion: 'v1', kind: 'Pod', namespace: need.namespace, name },
            container: need.container,
            lines,
          });
          changed = true;
        }
      }
    } catch {
      // Unreachable cluster or malformed answer: the watch sources already report reachability as data.
    } finally {
      this.polling = false;
      if (generation === this.generation) this.rounds += 1;
    }
    if (changed) this.onChange();
  }
}
