/**
 * Failure mode D — pod-setup latency during mass pod creation. On high-density nodes a drain recreates pods faster
 * than OVN-Kubernetes wires them (3+ s per pod instead of < 0.5 s). Reads the quantile series of
 * `ovnkube_controller_pod_creation_latency_seconds` that the metrics source computed (Prometheus or scrape).
 */
import type { ObjectRef } from '@/lib/k8s/types';
import type {
  Detector,
  DetectorContext,
  DetectorOutput,
  Evidence,
  Finding,
  LatencySeries,
  RemediationStep,
  SeriesPoint,
  Severity,
  Snapshot,
} from '@/lib/health/types';
import { findingId } from '@/lib/health/shared/objects';
import { NO_METRICS_SOURCE } from './chart-spec';
import { bucketAround, POD_CREATION_LATENCY_BUCKETS } from '@/lib/metrics/ovnkube-buckets';

const ID = 'pod-setup-latency' as const;
/** The histogram the quantiles come from. */
export const POD_CREATION_METRIC = 'ovnkube_controller_pod_creation_latency_seconds';
const METRIC_REF: ObjectRef = { kind: 'Metric', name: POD_CREATION_METRIC };

/** Keys a metrics source may use for each quantile in {@link LatencySeries.quantiles}. */
const QUANTILE_KEYS = { p50: ['p50', '0.5', '0.50'], p95: ['p95', '0.95'], p99: ['p99', '0.99'] } as const;
type QuantileName = keyof typeof QUANTILE_KEYS;

function seriesOf(quantiles: Record<string, SeriesPoint[]> | undefined, q: QuantileName): SeriesPoint[] {
  for (const key of QUANTILE_KEYS[q]) if (quantiles?.[key]) return quantiles[key];
  return [];
}

/** The newest point with a finite value, ignoring points after `now`. */
function latest(points: readonly SeriesPoint[], now: number): SeriesPoint | undefined {
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i];
    if (p.t <= now && p.v !== null && Number.isFinite(p.v)) return p;
  }
  return undefined;
}

/** Start of the current run of points above `threshold` ending at the latest point (epoch ms). */
function runStart(points: readonly SeriesPoint[], now: number, threshold: number): number | undefined {
  let start: number | undefined;
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i];
    if (p.t > now || p.v === null || !Number.isFinite(p.v)) continue;
    if (p.v <= threshold) break;
    start = p.t;
  }
  return start;
}

function severityOf(p99: number, ctx: DetectorContext): Severity | undefined {
  if (p99 > ctx.config.latencyCriticalSeconds) return 'critical';
  if (p99 > ctx.config.latencyWarningSeconds) return 'warning';
  return undefined;
}

const fmt = (s: number): string => (s === Infinity ? '+Inf' : `${Number(s.toPrecision(4))} s`);

function batchEvidence(latency: LatencySeries, now: number): Evidence[] {
  const out: Evidence[] = [];
  const size = latest(latency.batch?.size ?? [], now);
  if (size)
    out.push({
      kind: 'metric',
      label: 'ovnkube_controller_pod_batch_size (latest)',
      value: size.v,
      unit: 'pods',
      at: new Date(size.t).toISOString(),
    });
  for (const [key, value] of Object.entries(latency.batch?.config ?? {}).sort()) {
    out.push({ kind: 'metric', label: `ovnkube_controller_pod_batch_config{config_key="${key}"}`, value });
  }
  return out;
}

const REMEDIATION: RemediationStep[] = [
  {
    title: 'Check the ovnkube pods on the affected nodes',
    command: 'oc -n openshift-ovn-kubernetes get pods -o wide -l app=ovnkube-node',
  },
  {
    title: 'See how many pods are waiting for their network',
    command: 'oc get pods -A --field-selector=status.phase=Pending -o wide | grep -c ContainerCreating',
  },
  {
    title: 'Slow the drain down so pods are recreated at a pace OVN-Kubernetes can wire',
    command: 'oc adm drain <node> --ignore-daemonsets --delete-emptydir-data --timeout=30m',
  },
];

function latencyFinding(
  subject: ObjectRef,
  scope: string,
  quantiles: Record<string, SeriesPoint[]>,
  latency: LatencySeries,
  ctx: DetectorContext,
): Finding | undefined {
  const p99Series = seriesOf(quantiles, 'p99');
  const p99 = latest(p99Series, ctx.now);
  if (!p99 || p99.v === null) return undefined;
  const severity = severityOf(p99.v, ctx);
  if (!severity) return undefined;
  const bounds = bucketAround(p99.v, POD_CREATION_LATENCY_BUCKETS);
  const at = new Date(p99.t).toISOString();
  const evidence: Evidence[] = [];
  for (const q of ['p50', 'p95', 'p99'] as const) {
    const point = latest(seriesOf(quantiles, q), ctx.now);
    if (point)
      evidence.push({
        kind: 'metric',
        label: `${q} ${POD_CREATION_METRIC}${scope === 'cluster' ? '' : ` (${scope})`}`,
        value: point.v,
        unit: 's',
        at: new Date(point.t).toISOString(),
      });
  }
  // Classic-bucket quantiles are linear interpolations: only the bucket edges are measured facts.
  evidence.push({
    kind: 'metric',
    label: 'Classic bucket holding p99 (le edges)',
    value: `(${fmt(bounds.lower)}, ${fmt(bounds.upper)}]`,
  });
  evidence.push(...batchEvidence(latency, ctx.now));
  const start = runStart(p99Series, ctx.now, ctx.config.latencyWarningSeconds);
  const threshold = severity === 'critical' ? ctx.config.latencyCriticalSeconds : ctx.config.latencyWarningSeconds;
  return {
    id: findingId(ID, subject, 'p99'),
    detector: ID,
    severity,
    subject,
    // The measured value moves every scrape; the title names the threshold crossed so it stays put.
    title: `Pod-setup p99 above ${fmt(threshold)}${scope === 'cluster' ? '' : ` on ${scope}`}`,
    summary:
      `OVN-Kubernetes takes ${fmt(p99.v)} at p99 to wire a new pod${scope === 'cluster' ? '' : ` on node ${scope}`} ` +
      `(from PodScheduled to logical switch port setup; healthy is below ${fmt(ctx.config.latencyWarningSeconds)}). ` +
      `The true p99 lies between the ${fmt(bounds.lower)} and ${fmt(bounds.upper)} bucket edges. Mass pod creation ` +
      '(a drain on a high-density node) at this pace makes pods time out and fail.' +
      (latency.batch ? ' Pod batching metrics are present; see the batch evidence.' : ''),
    evidence,
    remediation: REMEDIATION,
    ...(start !== undefined ? { since: new Date(start).toISOString() } : { since: at }),
  };
}

function detect(snapshot: Snapshot, ctx: DetectorContext): DetectorOutput {
  const latency = snapshot.latency;
  // An idle cluster's metrics are not scraped, and a first scrape not yet ended has said nothing: nothing is said here
  // (its activity says what is not read).
  if (!latency && (snapshot.idle || snapshot.metricsUnread))
    return { findings: [], samples: { p50: null, p95: null, p99: null } };
  if (!latency) {
    return {
      findings: [
        {
          id: findingId(ID, METRIC_REF, NO_METRICS_SOURCE),
          detector: ID,
          severity: 'info',
          subject: METRIC_REF,
          title: 'No metrics source for pod-setup latency',
          summary:
            `Neither a Prometheus API nor a scrape of the ovnkube metrics endpoints provides ${POD_CREATION_METRIC}, ` +
            'so pod-setup latency is not evaluated. This is not a sign of health.',
          evidence: [],
          remediation: [
            {
              title: "Find the cluster's Prometheus-compatible query endpoint (thanos-querier) to configure",
              command: 'oc -n openshift-monitoring get route thanos-querier -o jsonpath={.spec.host}',
            },
          ],
        },
      ],
      samples: { p50: null, p95: null, p99: null },
    };
  }
  const findings: Finding[] = [];
  const overall = latencyFinding(METRIC_REF, 'cluster', latency.quantiles, latency, ctx);
  if (overall) findings.push(overall);
  for (const node of Object.keys(latency.perNode ?? {}).sort()) {
    const f = latencyFinding(
      { apiVersion: 'v1', kind: 'Node', name: node },
      node,
      latency.perNode?.[node] ?? {},
      latency,
      ctx,
    );
    if (f) findings.push(f);
  }
  const value = (q: QuantileName): number | null => latest(seriesOf(latency.quantiles, q), ctx.now)?.v ?? null;
  const samples: Record<string, number | null> = { p50: value('p50'), p95: value('p95'), p99: value('p99') };
  if (latency.batch?.size) samples.batchSize = latest(latency.batch.size, ctx.now)?.v ?? null;
  return { findings, samples };
}

/**
 * Detector D. Emits:
 * - `pod-setup-latency:Metric//ovnkube_controller_pod_creation_latency_seconds:no-metrics-source` (info) without
 *   a metrics source — an honest empty state, not "ok";
 * - `…:Metric//ovnkube_controller_pod_creation_latency_seconds:p99` for the cluster-wide p99 and
 *   `pod-setup-latency:Node//<node>:p99` per node: warning above `latencyWarningSeconds`, critical above
 *   `latencyCriticalSeconds`, with p50/p95/p99, the classic bucket edges around p99 and batching metrics if present.
 * Samples: `p50`, `p95`, `p99` (latest, seconds; `null` without data) and `batchSize` when batching is reported.
 */
export const podSetupLatency: Detector = {
  id: ID,
  title: 'Pod-setup latency',
  insight: {
    impactType: 'Application Availability',
    scopeType: 'WorkerPool',
    referenceUrl: 'https://github.com/ovn-org/ovn-kubernetes/blob/master/docs/observability/metrics.md',
  },
  needs: [],
  detect,
};
