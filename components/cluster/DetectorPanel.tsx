import type { ReactNode } from 'react';
import type { SeverityDto } from '@/lib/api/dto';
import { withUnit, type DetectorSpec } from '@/lib/charts/chart-spec';
import type { DetectorSeries } from '@/lib/charts/to-detector-series';
import { TimeSeriesChart } from '@/components/charts/TimeSeriesChart';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import { formatNumber } from '@/lib/view/format-time';
import styles from './cluster.module.css';

/** One detector's panel: title, worst severity, chart (or an honest empty state), latest values, extras. */
export function DetectorPanel({
  spec,
  series,
  severity,
  focused,
  onFocus,
  emptyText,
  children,
}: {
  spec: DetectorSpec;
  series: DetectorSeries;
  severity: SeverityDto | undefined;
  focused: boolean;
  onFocus: () => void;
  emptyText: string;
  children?: ReactNode;
}) {
  const channels = spec.channels.filter((c) => series.keys.includes(c.key));
  // One chart per unit (small multiples), each with only the channels that have data in the range.
  const charts = spec.charts
    .map((chart) => ({ ...chart, channels: chart.channels.filter((c) => series.keys.includes(c.key)) }))
    .filter((chart) => chart.channels.length > 0);
  const titleId = `panel-title-${spec.id}`;
  return (
    <section
      id={`panel-${spec.id}`}
      className={styles.panel}
      data-testid={`panel-${spec.id}`}
      data-focused={focused || undefined}
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <div className={styles.panelHead}>
        <h3 id={titleId}>{spec.title}</h3>
        {severity ? <SeverityBadge severity={severity} /> : null}
        <button type="button" className="btn btn-small" aria-pressed={focused} onClick={onFocus}>
          {focused ? 'Focused' : 'Focus'}
          <span className="visually-hidden"> panel {spec.title}</span>
        </button>
      </div>
      <p className="muted">{spec.question}</p>
      {series.rows.length === 0 || channels.length === 0 ? (
        <p className={styles.empty} data-testid={`empty-${spec.id}`}>
          {emptyText}
        </p>
      ) : (
        <>
          <div data-testid={`chart-${spec.id}`}>
            {charts.map((chart) => (
              <TimeSeriesChart
                key={chart.axisLabel}
                rows={series.rows}
                chart={chart}
                kind={spec.kind}
                height={charts.length > 1 ? 160 : 220}
                testId={`chart-${spec.id}-${chart.axisLabel.replace(/\W+/g, '-')}`}
              />
            ))}
          </div>
          <p className={styles.latest}>
            Latest:{' '}
            {channels.map((c, i) => (
              <span key={c.key}>
                {i > 0 ? ' · ' : ''}
                {c.label} <strong>{withUnit(formatNumber(series.latest[c.key]), c.unit)}</strong>
              </span>
            ))}
          </p>
        </>
      )}
      {children}
    </section>
  );
}
