'use client';
import { Line, LineChart, XAxis, YAxis } from 'recharts';
import type { FleetSparkline } from '@/lib/charts/pick-sparkline';
import { formatNumber } from '@/lib/view/format-time';

/**
 * A tiny trend line over a fixed time window and a fixed y-floor (so a short history sits at the right edge and noise
 * stays flat), with an accessible label saying what it plots; colour follows the text colour of its container.
 */
export function Sparkline({ spark, testId }: { spark: FleetSparkline; testId?: string }) {
  const { points, label, caption, window, domain } = spark;
  if (points.length === 0) return <span className="muted">no data</span>;
  const last = points[points.length - 1].v;
  return (
    <span
      className="sparkline"
      data-testid={testId}
      data-detector={spark.detector}
      data-key={spark.key}
      data-window={window.label}
      title={label}
      role="img"
      aria-label={`${label}: latest ${formatNumber(last)}`}
    >
      <LineChart
        width={120}
        height={28}
        data={points as { t: number; v: number }[]}
        margin={{ top: 2, right: 2, bottom: 2, left: 2 }}
        accessibilityLayer={false}
      >
        <XAxis hide dataKey="t" type="number" domain={[window.from, window.to]} allowDataOverflow />
        <YAxis hide domain={domain} allowDataOverflow />
        <Line
          dataKey="v"
          type="monotone"
          stroke="currentColor"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
      {caption ? (
        <span className="sparkline-caption" aria-hidden="true">
          {caption}
        </span>
      ) : null}
    </span>
  );
}
