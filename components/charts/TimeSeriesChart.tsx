'use client';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChannelSpec } from '@/lib/charts/detectors';
import type { ChartRow } from '@/lib/charts/to-detector-series';
import { formatClock, formatNumber } from '@/lib/view/format-time';
import { SERIES_COLORS, THRESHOLD_COLORS } from './palette';

/** Props of {@link TimeSeriesChart}: ready-made rows (≤ 1,000) and the channels to draw. */
export interface TimeSeriesChartProps {
  rows: readonly ChartRow[];
  channels: readonly ChannelSpec[];
  kind: 'line' | 'step';
  thresholds?: readonly { value: number; label: string; severity: 'warning' | 'critical' }[];
  height?: number;
  testId: string;
}

const fmtValue = (unit?: string) => (v: unknown): string => {
  if (typeof v !== 'number') return '—';
  const n = formatNumber(v);
  return unit === 's' ? `${n} s` : unit === '%' ? `${n} %` : n;
};

/** A dumb multi-line time chart: draws what it is given, no fetching, no shaping. */
export function TimeSeriesChart({ rows, channels, kind, thresholds = [], height = 220, testId }: TimeSeriesChartProps) {
  const unit = channels[0]?.unit;
  return (
    <div className="chart" data-testid={testId}>
      <LineChart responsive data={rows as ChartRow[]} style={{ width: '100%', height }} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="currentColor" strokeOpacity={0.15} />
        <XAxis dataKey="t" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={formatClock}
          tick={{ fill: 'currentColor', fontSize: 11 }} stroke="currentColor" minTickGap={40} />
        <YAxis tick={{ fill: 'currentColor', fontSize: 11 }} stroke="currentColor" width={48} allowDecimals={unit === 's'} />
        <Tooltip
          labelFormatter={(t) => (typeof t === 'number' ? `${formatClock(t)} UTC` : String(t))}
          formatter={(v, name) => [fmtValue(channels.find((c) => c.label === name)?.unit)(v), name]}
          contentStyle={{ background: 'var(--bg)', border: '1px solid var(--border)', color: 'var(--fg)' }}
          isAnimationActive={false}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
        {thresholds.map((th) => (
          <ReferenceLine key={th.label} y={th.value} stroke={THRESHOLD_COLORS[th.severity]} strokeDasharray="4 4"
            label={{ value: th.label, fill: 'currentColor', fontSize: 10, position: 'insideTopRight' }} ifOverflow="extendDomain" />
        ))}
        {channels.map((c, i) => (
          <Line key={c.key} dataKey={c.key} name={c.label} type={kind === 'step' ? 'stepAfter' : 'monotone'}
            stroke={SERIES_COLORS[i % SERIES_COLORS.length]} strokeWidth={2} dot={false} isAnimationActive={false} connectNulls={false} />
        ))}
      </LineChart>
    </div>
  );
}
