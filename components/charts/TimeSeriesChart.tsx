'use client';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { withUnit, type ChartSpec } from '@/lib/charts/chart-spec';
import { timeAxisLabel } from '@/lib/charts/time-axis';
import type { ChartRow } from '@/lib/charts/to-detector-series';
import { formatClock, formatDateTime, formatNumber } from '@/lib/view/format-time';
import { SERIES_COLORS, THRESHOLD_COLORS } from './palette';

/**
 * Props of {@link TimeSeriesChart}: ready-made rows (≤ 1,000) and one chart of a detector: its channels share one
 * unit, which the y-axis names.
 */
export interface TimeSeriesChartProps {
  rows: readonly ChartRow[];
  chart: ChartSpec;
  kind: 'line' | 'step';
  height?: number;
  testId: string;
}

/** A dumb multi-line time chart with one unit on its y-axis: draws what it is given, no fetching, no shaping. */
export function TimeSeriesChart({ rows, chart, kind, height = 220, testId }: TimeSeriesChartProps) {
  const { unit, channels, thresholds = [], domain } = chart;
  const from = rows[0]?.t ?? 0;
  const to = rows[rows.length - 1]?.t ?? from;
  const xLabel = timeAxisLabel(from, to);
  const yLabel = unit === 'count' ? chart.axisLabel : `${chart.axisLabel} (${unit})`;
  return (
    <div className="chart" data-testid={testId} data-unit={unit}>
      <LineChart
        responsive
        data={rows as ChartRow[]}
        style={{ width: '100%', height }}
        margin={{ top: 8, right: 16, bottom: 16, left: 8 }}
      >
        <CartesianGrid stroke="currentColor" strokeOpacity={0.15} />
        <XAxis
          dataKey="t"
          type="number"
          scale="time"
          domain={['dataMin', 'dataMax']}
          tickFormatter={formatClock}
          tick={{ fill: 'currentColor', fontSize: 11 }}
          stroke="currentColor"
          minTickGap={40}
          label={{ value: xLabel, position: 'insideBottom', offset: -12, fill: 'currentColor', fontSize: 11 }}
        />
        <YAxis
          tick={{ fill: 'currentColor', fontSize: 11 }}
          stroke="currentColor"
          width={56}
          allowDecimals={unit !== 'count'}
          domain={domain ? [domain[0], domain[1]] : [0, 'auto']}
          label={{
            value: yLabel,
            angle: -90,
            position: 'insideLeft',
            fill: 'currentColor',
            fontSize: 11,
            style: { textAnchor: 'middle' },
          }}
        />
        <Tooltip
          labelFormatter={(t) => (typeof t === 'number' ? formatDateTime(t) : String(t))}
          formatter={(v, name) => [typeof v === 'number' ? withUnit(formatNumber(v), unit) : '—', name]}
          contentStyle={{ background: 'var(--bg)', border: '1px solid var(--border)', color: 'var(--fg)' }}
          isAnimationActive={false}
        />
        <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
        {thresholds.map((th) => (
          <ReferenceLine
            key={th.label}
            y={th.value}
            stroke={THRESHOLD_COLORS[th.severity]}
            strokeDasharray="4 4"
            label={{ value: th.label, fill: 'currentColor', fontSize: 10, position: 'insideTopRight' }}
            ifOverflow="extendDomain"
          />
        ))}
        {channels.map((c, i) => (
          <Line
            key={c.key}
            dataKey={c.key}
            name={c.label}
            type={kind === 'step' ? 'stepAfter' : 'monotone'}
            stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
            connectNulls={false}
          />
        ))}
      </LineChart>
      <p className="visually-hidden">{`${yLabel} over ${xLabel}`}</p>
    </div>
  );
}
