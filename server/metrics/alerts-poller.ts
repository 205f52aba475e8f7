import 'server-only';
import type { Alert } from '@/lib/health/update-progress/types';
import { labelKey } from '@/lib/metrics/exposition';
import { parseQueryResponse, type PromSeries } from '@/lib/metrics/prometheus-api';
import type { ClusterConnection } from '@/server/kube/connection';
import { parseAlerts } from './alerts';

/** What one poll of an alerts source found: alerts, no alerts source at all, or a failure (all data). */
export type AlertsPoll =
  { state: 'ok'; alerts: Alert[] } | { state: 'absent'; reason: string } | { state: 'error'; reason: string };

/** The in-cluster Prometheus alerts API through the API server's service proxy (read-only GET). */
export const THANOS_ALERTS_PATH =
  '/api/v1/namespaces/openshift-monitoring/services/https:thanos-querier:9091/proxy/api/v1/alerts';

/** Polls an alerts source on an interval and keeps the latest answer. */
export class AlertsPoller {
  private latest: AlertsPoll = { state: 'absent', reason: 'not polled yet' };
  private timer: NodeJS.Timeout | undefined;
  private inFlight = false;

  constructor(
    private readonly poll: () => Promise<AlertsPoll>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Alerts from the latest poll; `undefined` without an alerts source or after a failed poll. */
  alerts(): Alert[] | undefined {
    return this.latest.state === 'ok' ? this.latest.alerts : undefined;
  }

  /** The latest poll, for status reporting and tests. */
  state(): AlertsPoll {
    return this.latest;
  }

  /** Polls once now. */
  async tick(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      this.latest = await this.poll();
    } catch (error) {
      this.latest = { state: 'error', reason: (error as Error).message };
    } finally {
      this.inFlight = false;
    }
  }
}

/**
 * Alerts from the cluster's own thanos-querier through the API server. 404 (no such service or route) and 503 (no
 * endpoints) mean the cluster offers no alerts source; other failures are reported as errors.
 */
export function inClusterAlerts(connection: ClusterConnection, timeoutMs = 10_000): () => Promise<AlertsPoll> {
  return async () => {
    const answer = await connection.getText(THANOS_ALERTS_PATH, { timeoutMs });
    if (answer.status === 404 || answer.status === 503)
      return { state: 'absent', reason: `thanos-querier answered ${answer.status}` };
    if (answer.status !== 200)
      return { state: 'error', reason: `thanos-querier answered ${answer.status}: ${answer.body.slice(0, 200)}` };
    try {
      return { state: 'ok', alerts: parseAlerts(JSON.parse(answer.body)) };
    } catch {
      return { state: 'error', reason: 'thanos-querier answered with something other than JSON' };
    }
  };
}

function withoutName(metric: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(metric).filter(([key]) => key !== '__name__'));
}

/**
 * Alerts from an `ALERTS` instant-query answer, with `activeAt` joined from an `ALERTS_FOR_STATE` answer (its value
 * is the activeAt time in seconds) when given. Annotations are not part of these series.
 */
export function alertsFromSeries(alerts: readonly PromSeries[], forState: readonly PromSeries[] = []): Alert[] {
  const activeAt = new Map<string, number>();
  for (const series of forState) {
    const labels = withoutName(series.metric);
    const value = series.points[0]?.v;
    if (typeof value === 'number') activeAt.set(labelKey(labels), value);
  }
  return alerts
    .map((series) => {
      const { alertstate, ...labels } = withoutName(series.metric);
      const started = activeAt.get(labelKey(labels));
      return {
        name: labels.alertname ?? '',
        state: alertstate ?? 'firing',
        severity: labels.severity ?? '',
        startsAt: started === undefined ? '' : new Date(started * 1000).toISOString(),
        labels,
        annotations: {},
      };
    })
    .filter((alert) => alert.name !== '');
}

/** Parses an `ALERTS` query answer body pair into alerts (errors as `undefined`). */
export function alertsFromQueryBodies(alertsBody: unknown, forStateBody: unknown): Alert[] | undefined {
  const alerts = parseQueryResponse(alertsBody);
  if (!alerts.ok) return undefined;
  const forState = parseQueryResponse(forStateBody);
  return alertsFromSeries(alerts.series, forState.ok ? forState.series : []);
}
