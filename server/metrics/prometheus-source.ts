import 'server-only';
import { readFileSync } from 'node:fs';
import type { LatencyPointDto, PodSetupLatencyDto } from '@/lib/api/latency-dto';
import type { LatencySeries, SeriesPoint } from '@/lib/health/types';
import { boundsOfQuantile } from '@/lib/metrics/histogram-window';
import { POD_CREATION_LATENCY_BUCKETS } from '@/lib/metrics/ovnkube-buckets';
import { parseQueryResponse, type PromSeries } from '@/lib/metrics/prometheus-api';
import { MAX_POINTS_PER_SERIES, pointsPerSeries, queryStepSeconds, rateWindowSeconds } from '@/lib/metrics/query-step';
import { clusterToLocal, localToCluster, type TimeAnchor } from '@/lib/metrics/time-map';
import type { ClusterConnection } from '@/server/kube/connection';
import { AlertsPoller, alertsFromQueryBodies, type AlertsPoll } from './alerts-poller';
import type { PrometheusTarget } from './config';
import { getMetricsJson, type MetricsGetResult } from './http-client';
import { parseAlerts } from './alerts';
import {
  emptyLatencyDto,
  latencyPoint,
  POD_BATCH_CONFIG,
  POD_BATCH_SIZE,
  POD_CREATION_LATENCY,
  QUANTILES,
  type LatencyRangeQuery,
  type MetricsSource,
} from './metrics-source';

const POLL_RANGE_SECONDS = 30 * 60;
const MAX_ANCHORS = 2_000;

/** The PromQL of one quantile, overall or by a node label. */
export function quantileQuery(q: number, windowSeconds: number, nodeLabel?: string): string {
  return `histogram_quantile(${q}, sum by (le${nodeLabel ? `, ${nodeLabel}` : ''}) (rate(${POD_CREATION_LATENCY}_bucket[${windowSeconds}s])))`;
}

interface LocalRange {
  quantiles: Record<string, PromSeries[]>;
  perNode: Record<string, PromSeries[]>;
  batchSize?: PromSeries[];
  batchConfig?: Record<string, number>;
  step: number;
  window: number;
  errors: string[];
  warnings: string[];
}

/**
 * Pod-setup latency and alerts from a Prometheus-compatible HTTP API (Prometheus, or OpenShift's thanos-querier
 * route with a bearer token): `histogram_quantile` over `rate()` of the bucket counters through `query_range`, with
 * the step chosen from the plot width. Prometheus stores samples in local (real) time; answers are mapped to
 * cluster time with anchors pairing both clocks.
 */
export class PrometheusSource implements MetricsSource {
  readonly kind = 'prometheus' as const;
  private readonly anchors: TimeAnchor[] = [];
  private readonly alertsPoller: AlertsPoller;
  private readonly ca: string | undefined;
  private readonly caError: string | undefined;
  private cached: LatencySeries | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Starts so far; a poll ending marks `polledRun` only if it belongs to the current start. */
  private runs = 0;
  private polledRun = -1;

  constructor(
    private readonly target: PrometheusTarget,
    private readonly connection: Pick<ClusterConnection, 'now'>,
    private readonly options: { pollMs?: number; timeoutMs?: number; localNow?: () => number } = {},
  ) {
    try {
      this.ca = target.caFile ? readFileSync(target.caFile, 'utf8') : undefined;
    } catch (error) {
      this.caError = `cannot read caFile: ${(error as Error).message}`;
    }
    this.alertsPoller = new AlertsPoller(() => this.pollAlerts(), Math.max(this.pollMs(), 10_000));
  }

  start(): void {
    if (this.timer) return;
    this.alertsPoller.start();
    const run = ++this.runs;
    const poll = () =>
      void this.pollLatency().finally(() => {
        this.polledRun = Math.max(this.polledRun, run);
      });
    poll();
    this.timer = setInterval(poll, this.pollMs());
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.alertsPoller.stop();
  }

  latency(): LatencySeries | undefined {
    return this.cached;
  }

  polled(): boolean {
    return this.timer !== undefined && this.polledRun === this.runs;
  }

  alerts() {
    return this.alertsPoller.alerts();
  }

  async podSetupLatency(clusterId: string, query: LatencyRangeQuery): Promise<PodSetupLatencyDto> {
    this.anchor();
    const from = clusterToLocal(this.anchors, query.from);
    const to = clusterToLocal(this.anchors, query.to);
    const range = await this.queryRange(from, to, query.stepSeconds, query.plotPx);
    const points = (series: PromSeries | undefined): LatencyPointDto[] =>
      (series?.points ?? []).map((p) =>
        latencyPoint(
          Math.round(localToCluster(this.anchors, p.t)),
          p.v === null ? undefined : { value: p.v, ...boundsOfQuantile(p.v, POD_CREATION_LATENCY_BUCKETS) },
        ),
      );
    const nodes = new Set(
      Object.values(range.perNode)
        .flat()
        .map((s) => s.metric[this.target.nodeLabel])
        .filter(Boolean),
    );
    const dto = emptyLatencyDto(clusterId, 'prometheus', query, {
      step: range.step,
      window: range.window,
      quantiles: Object.fromEntries(QUANTILES.map(([key]) => [key, points(range.quantiles[key]?.[0])])),
      perNode: Object.fromEntries(
        [...nodes]
          .sort()
          .map((node) => [
            node,
            Object.fromEntries(
              QUANTILES.map(([key]) => [
                key,
                points(range.perNode[key]?.find((s) => s.metric[this.target.nodeLabel] === node)),
              ]),
            ),
          ]),
      ),
    });
    if (range.batchConfig && Object.keys(range.batchConfig).length > 0) {
      dto.batch = {
        config: range.batchConfig,
        size: (range.batchSize?.[0]?.points ?? []).map((p) => ({
          t: Math.round(localToCluster(this.anchors, p.t)),
          v: p.v,
        })),
      };
    }
    if (range.errors.length > 0) dto.error = range.errors.join('; ');
    if (range.warnings.length > 0) dto.warnings = range.warnings;
    return dto;
  }

  private pollMs(): number {
    return this.options.pollMs ?? Math.max(15_000, this.target.scrapeIntervalSeconds * 1000);
  }

  private localNow(): number {
    return (this.options.localNow ?? Date.now)();
  }

  private anchor(): void {
    const local = this.localNow();
    const cluster = this.connection.now();
    const last = this.anchors[this.anchors.length - 1];
    if (last && (local <= last.local || cluster < last.cluster)) return;
    this.anchors.push({ local, cluster });
    if (this.anchors.length > MAX_ANCHORS) this.anchors.splice(0, this.anchors.length - MAX_ANCHORS);
  }

  private async pollLatency(): Promise<void> {
    this.anchor();
    const to = this.localNow();
    const range = await this.queryRange(to - POLL_RANGE_SECONDS * 1000, to);
    const toSeries = (series: PromSeries | undefined): SeriesPoint[] =>
      (series?.points ?? []).map((p) => ({ t: Math.round(localToCluster(this.anchors, p.t)), v: p.v }));
    if (range.errors.length > 0 && !range.quantiles.p99?.length) {
      this.cached = undefined;
      return;
    }
    const label = this.target.nodeLabel;
    const nodes = [
      ...new Set(
        Object.values(range.perNode)
          .flat()
          .map((s) => s.metric[label])
          .filter(Boolean),
      ),
    ].sort();
    const latency: LatencySeries = {
      source: 'prometheus',
      quantiles: Object.fromEntries(QUANTILES.map(([key]) => [key, toSeries(range.quantiles[key]?.[0])])),
      perNode: Object.fromEntries(
        nodes.map((node) => [
          node,
          Object.fromEntries(
            QUANTILES.map(([key]) => [key, toSeries(range.perNode[key]?.find((s) => s.metric[label] === node))]),
          ),
        ]),
      ),
    };
    if (range.batchConfig && Object.keys(range.batchConfig).length > 0)
      latency.batch = { config: range.batchConfig, size: toSeries(range.batchSize?.[0]) };
    this.cached = latency;
  }

  /** Every query of a local-time range; failures collected as data. */
  private async queryRange(fromMs: number, toMs: number, stepSeconds?: number, plotPx = 1000): Promise<LocalRange> {
    const scrape = this.target.scrapeIntervalSeconds;
    const rangeSeconds = Math.max(0, (toMs - fromMs) / 1000);
    let step = stepSeconds ?? queryStepSeconds(rangeSeconds, plotPx, scrape);
    if (pointsPerSeries(rangeSeconds, step) > MAX_POINTS_PER_SERIES)
      step = Math.ceil(rangeSeconds / (MAX_POINTS_PER_SERIES - 1));
    const window = rateWindowSeconds(step, scrape);
    const out: LocalRange = { quantiles: {}, perNode: {}, step, window, errors: [], warnings: [] };
    const start = (fromMs / 1000).toFixed(3);
    const end = (toMs / 1000).toFixed(3);
    const range = async (query: string): Promise<PromSeries[] | undefined> => {
      const result = await this.get('/api/v1/query_range', { query, start, end, step: String(step) });
      return this.series(result, out);
    };
    const label = this.target.nodeLabel;
    await Promise.all(
      QUANTILES.flatMap(([key, q]) => [
        range(quantileQuery(q, window)).then((s) => {
          if (s) out.quantiles[key] = s;
        }),
        range(quantileQuery(q, window, label)).then((s) => {
          if (s) out.perNode[key] = s;
        }),
      ]),
    );
    const config = this.series(
      await this.get('/api/v1/query', { query: `max by (config_key) (${POD_BATCH_CONFIG})`, time: end }),
      out,
    );
    if (config && config.length > 0) {
      out.batchConfig = Object.fromEntries(
        config
          .filter((s) => s.metric.config_key && typeof s.points[0]?.v === 'number')
          .map((s) => [s.metric.config_key, s.points[0].v as number]),
      );
      out.batchSize = await range(
        `sum(rate(${POD_BATCH_SIZE}_sum[${window}s])) / sum(rate(${POD_BATCH_SIZE}_count[${window}s]))`,
      );
    }
    return out;
  }

  private series(result: MetricsGetResult, out: LocalRange): PromSeries[] | undefined {
    if (!result.ok) {
      out.errors.push(result.message);
      return undefined;
    }
    const parsed = parseQueryResponse(result.body);
    if (!parsed.ok) {
      out.errors.push(`Prometheus answered ${result.status}: ${parsed.error}`);
      return undefined;
    }
    out.warnings.push(...parsed.warnings);
    return parsed.series;
  }

  private async pollAlerts(): Promise<AlertsPoll> {
    const alerts = await this.get('/api/v1/alerts', {});
    if (alerts.ok && alerts.status === 200) return { state: 'ok', alerts: parseAlerts(alerts.body) };
    if (!alerts.ok && alerts.status !== 404) return { state: 'error', reason: alerts.message };
    const [firing, forState] = await Promise.all([
      this.get('/api/v1/query', { query: 'ALERTS{alertstate="firing"}' }),
      this.get('/api/v1/query', { query: 'ALERTS_FOR_STATE' }),
    ]);
    if (!firing.ok) return { state: 'error', reason: firing.message };
    const parsed = alertsFromQueryBodies(firing.body, forState.ok ? forState.body : undefined);
    return parsed ? { state: 'ok', alerts: parsed } : { state: 'error', reason: 'ALERTS query failed' };
  }

  private get(path: string, params: Record<string, string>): Promise<MetricsGetResult> {
    if (this.caError) return Promise.resolve({ ok: false, kind: 'invalid', message: this.caError });
    let token: string | undefined;
    try {
      token = this.target.tokenFile ? readFileSync(this.target.tokenFile, 'utf8').trim() : undefined;
    } catch (error) {
      return Promise.resolve({
        ok: false,
        kind: 'invalid',
        message: `cannot read tokenFile: ${(error as Error).message}`,
      });
    }
    const base = this.target.url.replace(/\/+$/, '');
    const search = new URLSearchParams(params).toString();
    return getMetricsJson(`${base}${path}${search ? `?${search}` : ''}`, {
      policy: { allowLoopback: this.target.allowLoopback },
      token,
      ca: this.ca,
      timeoutMs: this.options.timeoutMs,
    });
  }
}
