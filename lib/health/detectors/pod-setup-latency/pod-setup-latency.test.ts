import { describe, expect, it } from 'vitest';
import type { LatencySeries, SeriesPoint } from '@/lib/health/types';
import { podSetupLatency } from '@/lib/health/detectors/pod-setup-latency/pod-setup-latency';
import { makeContext, makeSnapshot } from '@/lib/health/testing/builders';

const NOW = '2025-05-01T12:00:00Z';
const ctx = makeContext(NOW);
const t0 = Date.parse(NOW);
/** A series ending at `now`, one point per 30 s. */
const series = (...values: (number | null)[]): SeriesPoint[] =>
  values.map((v, i) => ({ t: t0 - (values.length - 1 - i) * 30_000, v }));
const METRIC = { kind: 'Metric', name: 'ovnkube_controller_pod_creation_latency_seconds' };

const latency = (p99: number[], extra: Partial<LatencySeries> = {}): LatencySeries => ({
  source: 'prometheus',
  quantiles: { p50: series(...p99.map((v) => v / 4)), p95: series(...p99.map((v) => v / 2)), p99: series(...p99) },
  ...extra,
});

describe('podSetupLatency', () => {
  it('says honestly that there is no metrics source', () => {
    expect(podSetupLatency.detect(makeSnapshot(), ctx)).toStrictEqual({
      findings: [
        {
          id: 'pod-setup-latency:Metric//ovnkube_controller_pod_creation_latency_seconds:no-metrics-source',
          detector: 'pod-setup-latency',
          severity: 'info',
          subject: METRIC,
          title: 'No metrics source for pod-setup latency',
          summary:
            'Neither a Prometheus API nor a scrape of the ovnkube metrics endpoints provides ' +
            'ovnkube_controller_pod_creation_latency_seconds, so pod-setup latency is not evaluated. This is not a sign of health.',
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
    });
  });

  it('says nothing while the metrics source has not answered once: not known yet is not "no source"', () => {
    expect(podSetupLatency.detect(makeSnapshot({}, { metricsUnread: true }), ctx)).toStrictEqual({
      findings: [],
      samples: { p50: null, p95: null, p99: null },
    });
  });

  it.each([
    [[0.2, 0.3, 0.45], undefined],
    [[0.2, 0.6, 0.52], 'warning'],
    [[0.2, 3.5, 3.01], 'critical'],
  ])('p99 %j → %s', (p99, severity) => {
    const out = podSetupLatency.detect(makeSnapshot({}, { latency: latency(p99) }), ctx);
    expect(out.findings.map((f) => f.severity)).toStrictEqual(severity ? [severity] : []);
    expect(out.samples).toStrictEqual({ p50: p99[2] / 4, p95: p99[2] / 2, p99: p99[2] });
  });

  it('shows the bucket edges around p99 and dates the finding from the start of the run above the threshold', () => {
    const [f] = podSetupLatency.detect(makeSnapshot({}, { latency: latency([0.3, 0.7, 0.52]) }), ctx).findings;
    expect(f).toStrictEqual({
      id: 'pod-setup-latency:Metric//ovnkube_controller_pod_creation_latency_seconds:p99',
      detector: 'pod-setup-latency',
      severity: 'warning',
      subject: METRIC,
      title: 'Pod-setup p99 above 0.5 s',
      summary: expect.stringContaining('The true p99 lies between the 0.4 s and 0.8 s bucket edges.'),
      evidence: [
        {
          kind: 'metric',
          label: 'p50 ovnkube_controller_pod_creation_latency_seconds',
          value: 0.13,
          unit: 's',
          at: NOW.replace('Z', '.000Z'),
        },
        {
          kind: 'metric',
          label: 'p95 ovnkube_controller_pod_creation_latency_seconds',
          value: 0.26,
          unit: 's',
          at: NOW.replace('Z', '.000Z'),
        },
        {
          kind: 'metric',
          label: 'p99 ovnkube_controller_pod_creation_latency_seconds',
          value: 0.52,
          unit: 's',
          at: NOW.replace('Z', '.000Z'),
        },
        { kind: 'metric', label: 'Classic bucket holding p99 (le edges)', value: '(0.4 s, 0.8 s]' },
      ],
      remediation: expect.any(Array),
      since: '2025-05-01T11:59:30.000Z',
    });
  });

  it('reports per node, with batch size and config when the batching metrics exist', () => {
    const out = podSetupLatency.detect(
      makeSnapshot(
        {},
        {
          latency: latency([0.2, 0.3, 0.4], {
            perNode: { 'worker-b': { p99: series(0.2, 3.4) }, 'worker-a': { '0.99': series(0.3) } },
            batch: {
              size: series(12, 48),
              config: { enabled: 1, window_ms: 50, batch_size: 100, parallel_batches: 4 },
            },
          }),
        },
      ),
      ctx,
    );
    expect(out.findings.map((f) => [f.id, f.severity, f.title])).toStrictEqual([
      ['pod-setup-latency:Node//worker-b:p99', 'critical', 'Pod-setup p99 above 3 s on worker-b'],
    ]);
    expect(out.findings[0].evidence.slice(-5).map((e) => [e.label, e.value])).toStrictEqual([
      ['ovnkube_controller_pod_batch_size (latest)', 48],
      ['ovnkube_controller_pod_batch_config{config_key="batch_size"}', 100],
      ['ovnkube_controller_pod_batch_config{config_key="enabled"}', 1],
      ['ovnkube_controller_pod_batch_config{config_key="parallel_batches"}', 4],
      ['ovnkube_controller_pod_batch_config{config_key="window_ms"}', 50],
    ]);
    expect(out.samples).toStrictEqual({ p50: 0.1, p95: 0.2, p99: 0.4, batchSize: 48 });
  });

  it('honours configured thresholds and skips gaps and future points', () => {
    const custom = makeContext(NOW, { latencyWarningSeconds: 1, latencyCriticalSeconds: 2 });
    const l: LatencySeries = { source: 'scrape', quantiles: { p99: [...series(1.5, null), { t: t0 + 60_000, v: 9 }] } };
    const out = podSetupLatency.detect(makeSnapshot({}, { latency: l }), custom);
    expect(out.findings.map((f) => [f.severity, f.title])).toStrictEqual([['warning', 'Pod-setup p99 above 1 s']]);
    expect(out.samples).toStrictEqual({ p50: null, p95: null, p99: 1.5 });
  });
});
