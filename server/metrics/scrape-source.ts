import 'server-only';
import type { LatencyPointDto, PodSetupLatencyDto } from '@/lib/api/latency-dto';
import type { LatencySeries, SeriesPoint } from '@/lib/health/types';
import type { Bucket } from '@/lib/metrics/histogram-quantile';
import { histogramsOf, parseExposition } from '@/lib/metrics/exposition';
import {
  extrapolatedRate,
  quantileEstimate,
  sumByLe,
  targetBucketRates,
  type CounterSample,
  type QuantileEstimate,
  type TargetScrape,
} from '@/lib/metrics/histogram-window';
import type { ClusterConnection } from '@/server/kube/connection';
import { AlertsPoller, inClusterAlerts } from './alerts-poller';
import {
  emptyLatencyDto,
  latencyPoint,
  POD_BATCH_CONFIG,
  POD_BATCH_SIZE,
  POD_CREATION_LATENCY,
  QUANTILES,
  thinToStep,
  type LatencyRangeQuery,
  type MetricsSource,
} from './metrics-source';

/** Namespace, label selector and metrics port of the ovnkube-node pods (ovnkube-controller's metrics). */
export const OVNKUBE_NAMESPACE = 'openshift-ovn-kubernetes';
export const OVNKUBE_SELECTOR = 'app=ovnkube-node';
export const OVNKUBE_METRICS_PORT = 29103;

/** Options of a {@link ScrapeSource}. */
export interface ScrapeSourceOptions {
  /** Real time between scrapes (default 15 s). The rate window is four intervals. */
  intervalMs?: number;
  /** Quantile points kept (default 1,000). */
  historyPoints?: number;
  timeoutMs?: number;
  /** Local clock (tests). */
  localNow?: () => number;
}

interface PodTarget {
  name: string;
  node: string;
}

interface PodHistory {
  node: string;
  creation: TargetScrape[];
  batchSum: CounterSample[];
  batchCount: CounterSample[];
}

interface HistoryPoint {
  local: number;
  cluster: number;
  overall: Record<string, QuantileEstimate | undefined>;
  perNode: Record<string, Record<string, QuantileEstimate | undefined>>;
  batchSize?: number | null;
}

const MAX_PARALLEL = 8;

/**
 * Pod-setup latency without Prometheus: scrapes every ovnkube-node pod's `/metrics` through the API server's pod
 * proxy on an interval (read-only GETs with the dashboard's own credentials) and computes
 * `histogram_quantile(q, sum by (le[, node]) (rate(…_bucket[4 × interval])))` from the bucket counters, exactly as
 * Prometheus would over the same samples. Alerts come from the in-cluster thanos-querier, when it answers.
 */
export class ScrapeSource implements MetricsSource {
  readonly kind = 'scrape' as const;
  private readonly intervalMs: number;
  private readonly windowMs: number;
  private readonly historyPoints: number;
  private readonly timeoutMs: number;
  private readonly localNow: () => number;
  private readonly pods = new Map<string, PodHistory>();
  private readonly history: HistoryPoint[] = [];
  private readonly alertsPoller: AlertsPoller;
  private batchConfig: Record<string, number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Starts so far; a poll ending marks `polledRun` only if it belongs to the current start. */
  private runs = 0;
  private polledRun = -1;
  private lastError: string | undefined;
  private cached: LatencySeries | undefined;
  private cachedFor: HistoryPoint | undefined;

  constructor(
    private readonly connection: ClusterConnection,
    options: ScrapeSourceOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 15_000;
    this.windowMs = 4 * this.intervalMs;
    this.historyPoints = options.historyPoints ?? 1_000;
    this.timeoutMs = options.timeoutMs ?? Math.min(10_000, this.intervalMs);
    this.localNow = options.localNow ?? Date.now;
    this.alertsPoller = new AlertsPoller(
      inClusterAlerts(connection, this.timeoutMs),
      Math.max(this.intervalMs, 10_000),
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const run = ++this.runs;
    this.alertsPoller.start();
    const loop = async () => {
      await this.scrapeOnce().catch((error: unknown) => {
        this.lastError = (error as Error).message;
      });
      this.polledRun = Math.max(this.polledRun, run);
      // Stopped and started again while this round ran: the new start runs its own loop.
      if (this.running && run === this.runs) {
        this.timer = setTimeout(() => void loop(), this.intervalMs);
        this.timer.unref?.();
      }
    };
    void loop();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.alertsPoller.stop();
  }

  polled(): boolean {
    return this.running && this.polledRun === this.runs;
  }

  /** Why the last round produced nothing, if it did. */
  error(): string | undefined {
    return this.lastError;
  }

  alerts() {
    return this.alertsPoller.alerts();
  }

  /** One scrape round: list the pods, scrape each, append one quantile point. */
  async scrapeOnce(): Promise<void> {
    const targets = await this.listPods();
    const local = this.localNow();
    const cluster = this.connection.now();
    const results = await this.mapLimited(targets, (target) => this.scrapePod(target, local));
    for (const name of [...this.pods.keys()]) if (!targets.some((t) => t.name === name)) this.pods.delete(name);
    const failures = results.filter((r): r is string => typeof r === 'string');
    this.lastError =
      targets.length === 0
        ? `no ${OVNKUBE_SELECTOR} pods in ${OVNKUBE_NAMESPACE}`
        : failures.length === targets.length
          ? failures[0]
          : undefined;
    if (failures.length === targets.length) return;
    this.history.push(this.evaluate(local, cluster));
    if (this.history.length > this.historyPoints) this.history.splice(0, this.history.length - this.historyPoints);
  }

  private async listPods(): Promise<PodTarget[]> {
    // The label selector is applied here: ClusterConnection.getText takes a bare path (no query string).
    const answer = await this.connection.getText(`/api/v1/namespaces/${OVNKUBE_NAMESPACE}/pods`, {
      timeoutMs: this.timeoutMs,
    });
    if (answer.status !== 200)
      throw new Error(`listing ovnkube pods answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    type Pod = {
      metadata?: { name?: string; labels?: Record<string, string> };
      spec?: { nodeName?: string };
      status?: { phase?: string };
    };
    const list = JSON.parse(answer.body) as { items?: Pod[] };
    const [key, value] = OVNKUBE_SELECTOR.split('=');
    return (list.items ?? [])
      .filter((pod) => pod.metadata?.name && pod.metadata.labels?.[key] === value && pod.status?.phase === 'Running')
      .map((pod) => ({ name: pod.metadata!.name!, node: pod.spec?.nodeName ?? pod.metadata!.name! }));
  }

  private async scrapePod(target: PodTarget, local: number): Promise<string | undefined> {
    const path = `/api/v1/namespaces/${OVNKUBE_NAMESPACE}/pods/${encodeURIComponent(target.name)}:${OVNKUBE_METRICS_PORT}/proxy/metrics`;
    let answer;
    try {
      answer = await this.connection.getText(path, { timeoutMs: this.timeoutMs });
    } catch (error) {
      return `${target.name}: ${(error as Error).message}`;
    }
    if (answer.status !== 200) return `${target.name}: metrics answered ${answer.status}`;
    const { samples } = parseExposition(answer.body);
    let entry = this.pods.get(target.name);
    if (!entry) {
      entry = { node: target.node, creation: [], batchSum: [], batchCount: [] };
      this.pods.set(target.name, entry);
    }
    entry.creation.push({ t: local, series: histogramsOf(samples, POD_CREATION_LATENCY) });
    const batch = histogramsOf(samples, POD_BATCH_SIZE)[0];
    if (batch?.sum !== undefined && batch.count !== undefined) {
      entry.batchSum.push({ t: local, v: batch.sum });
      entry.batchCount.push({ t: local, v: batch.count });
    }
    const config = samples.filter((s) => s.name === POD_BATCH_CONFIG && s.labels.config_key);
    if (config.length > 0) this.batchConfig = Object.fromEntries(config.map((s) => [s.labels.config_key, s.value]));
    const keepFrom = local - this.windowMs - this.intervalMs;
    for (const list of [entry.creation, entry.batchSum, entry.batchCount] as { t: number }[][]) {
      while (list.length > 0 && list[0].t < keepFrom) list.shift();
    }
    return undefined;
  }

  private evaluate(local: number, cluster: number): HistoryPoint {
    const byNode = new Map<string, Bucket[][]>();
    let sum = 0;
    let count = 0;
    for (const pod of this.pods.values()) {
      const rates = targetBucketRates(pod.creation, local, this.windowMs);
      if (rates) byNode.set(pod.node, [...(byNode.get(pod.node) ?? []), rates]);
      sum += extrapolatedRate(pod.batchSum, local, this.windowMs) ?? 0;
      count += extrapolatedRate(pod.batchCount, local, this.windowMs) ?? 0;
    }
    const estimates = (buckets: Bucket[]) =>
      Object.fromEntries(QUANTILES.map(([key, q]) => [key, quantileEstimate(q, buckets)]));
    const perNode: HistoryPoint['perNode'] = {};
    for (const [node, lists] of byNode) perNode[node] = estimates(sumByLe(lists));
    const point: HistoryPoint = { local, cluster, overall: estimates(sumByLe([...byNode.values()].flat())), perNode };
    if (this.batchConfig) point.batchSize = count > 0 ? sum / count : null;
    return point;
  }

  latency(): LatencySeries | undefined {
    if (this.history.length === 0) return undefined;
    // The engine asks on every evaluation; rebuild only after a new scrape round.
    const last = this.history[this.history.length - 1];
    if (this.cachedFor === last && this.cached) return this.cached;
    this.cachedFor = last;
    this.cached = this.buildLatency();
    return this.cached;
  }

  private buildLatency(): LatencySeries {
    const series = (pick: (p: HistoryPoint) => QuantileEstimate | undefined): SeriesPoint[] =>
      this.history.map((p) => ({ t: p.cluster, v: pick(p)?.value ?? null }));
    const nodes = new Set(this.history.flatMap((p) => Object.keys(p.perNode)));
    const out: LatencySeries = {
      source: 'scrape',
      quantiles: Object.fromEntries(QUANTILES.map(([key]) => [key, series((p) => p.overall[key])])),
      perNode: Object.fromEntries(
        [...nodes]
          .sort()
          .map((node) => [
            node,
            Object.fromEntries(QUANTILES.map(([key]) => [key, series((p) => p.perNode[node]?.[key])])),
          ]),
      ),
    };
    if (this.batchConfig) {
      out.batch = {
        config: { ...this.batchConfig },
        size: this.history
          .filter((p) => p.batchSize !== undefined)
          .map((p) => ({ t: p.cluster, v: p.batchSize ?? null })),
      };
    }
    return out;
  }

  async podSetupLatency(clusterId: string, query: LatencyRangeQuery): Promise<PodSetupLatencyDto> {
    const stepMs = (query.stepSeconds ?? Math.ceil(this.intervalMs / 1000)) * 1000;
    const inRange = thinToStep(
      this.history.filter((p) => p.cluster >= query.from && p.cluster <= query.to),
      stepMs,
      (p) => p.cluster,
    );
    const points = (pick: (p: HistoryPoint) => QuantileEstimate | undefined): LatencyPointDto[] =>
      inRange.map((p) => latencyPoint(p.cluster, pick(p)));
    const nodes = [...new Set(inRange.flatMap((p) => Object.keys(p.perNode)))].sort();
    return emptyLatencyDto(clusterId, 'scrape', query, {
      step: stepMs / 1000,
      window: this.windowMs / 1000,
      quantiles: Object.fromEntries(QUANTILES.map(([key]) => [key, points((p) => p.overall[key])])),
      perNode: Object.fromEntries(
        nodes.map((node) => [
          node,
          Object.fromEntries(QUANTILES.map(([key]) => [key, points((p) => p.perNode[node]?.[key])])),
        ]),
      ),
      ...(this.batchConfig
        ? {
            batch: {
              config: { ...this.batchConfig },
              size: inRange
                .filter((p) => p.batchSize !== undefined)
                .map((p) => ({ t: p.cluster, v: p.batchSize ?? null })),
            },
          }
        : {}),
      ...(this.lastError ? { error: this.lastError } : {}),
    });
  }

  private async mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
    const out: R[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await fn(items[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL, items.length) }, worker));
    return out;
  }
}
