'use client';
import { useMemo } from 'react';
import type { ClusterSeriesDto, FindingDto } from '@/lib/api/dto';
import type { ChartSpec } from '@/lib/charts/chart-spec';
import { DETECTOR_SPECS } from '@/lib/charts/detectors';
import { panelEmptyText } from '@/lib/charts/panel-empty-text';
import { rangeStart, type TimeRange } from '@/lib/charts/time-range';
import { busiestLanes, toConditionTimeline } from '@/lib/charts/to-condition-timeline';
import { toDetectorSeries, toSeriesFor } from '@/lib/charts/to-detector-series';
import { worstByDetector } from '@/lib/health/severity';
import { ConditionTimeline } from '@/components/charts/ConditionTimeline';
import { TimeSeriesChart } from '@/components/charts/TimeSeriesChart';
import { DetectorPanel } from './DetectorPanel';
import styles from './cluster.module.css';

const MAX_LANES = 12;
const BATCH_CHART: ChartSpec = {
  unit: 'count',
  axisLabel: 'pods',
  channels: [{ key: 'batchSize', label: 'Batch size', unit: 'count' }],
};

/** One panel per detector, with series shaped for the chosen range. */
export function DetectorPanels({
  series,
  findings,
  range,
  focusedPanel,
  onFocusPanel,
}: {
  series: ClusterSeriesDto | undefined;
  findings: readonly FindingDto[];
  range: TimeRange;
  focusedPanel: string | null;
  onFocusPanel: (id: string | null) => void;
}) {
  const now = series?.now ?? 0;
  const shaped = useMemo(
    () =>
      Object.fromEntries(DETECTOR_SPECS.map((d) => [d.id, toSeriesFor(d.id, series?.samples[d.id], { now, range })])),
    [series, now, range],
  );
  // Batching metrics are not released upstream: chart the batch size only when the cluster reports it.
  const batch = useMemo(
    () => toDetectorSeries(series?.samples['pod-setup-latency'], ['batchSize'], { now, range }),
    [series, now, range],
  );
  const timeline = useMemo(
    () => busiestLanes(toConditionTimeline(series?.transitions ?? [], { now, range }), MAX_LANES),
    [series, now, range],
  );
  const lanes = timeline.lanes;
  const severities = useMemo(() => worstByDetector(findings), [findings]);
  const timelineFrom = Math.max(
    rangeStart(now, range),
    Math.min(now, ...lanes.flatMap((l) => l.segments.map((s) => s.from))),
  );

  return (
    <div className={styles.panels}>
      {DETECTOR_SPECS.map((spec) => (
        <DetectorPanel
          key={spec.id}
          spec={spec}
          series={shaped[spec.id]}
          severity={severities[spec.id]}
          focused={focusedPanel === spec.id}
          onFocus={() => onFocusPanel(focusedPanel === spec.id ? null : spec.id)}
          emptyText={series ? panelEmptyText(spec, findings) : 'Loading series…'}
        >
          {spec.id === 'pod-setup-latency' && batch.keys.length > 0 ? (
            <>
              <h4>Pod batch size</h4>
              <TimeSeriesChart
                rows={batch.rows}
                chart={BATCH_CHART}
                kind="step"
                height={140}
                testId="chart-pod-setup-latency-batch"
              />
            </>
          ) : null}
          {spec.id === 'install-settling' ? (
            <>
              <h4>Condition timeline</h4>
              <ConditionTimeline
                lanes={lanes}
                quieter={timeline.rest}
                from={timelineFrom}
                to={now}
                testId="condition-timeline"
              />
            </>
          ) : null}
        </DetectorPanel>
      ))}
    </div>
  );
}
