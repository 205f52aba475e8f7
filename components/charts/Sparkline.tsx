'use client';
import { Line, LineChart, YAxis } from 'recharts';

/** A tiny trend line; colour follows the text colour of its container. */
export function Sparkline({ points, label, testId }: { points: readonly { t: number; v: number }[]; label: string; testId?: string }) {
  if (points.length === 0) return <span className="muted">no data</span>;
  const last = points[points.length - 1].v;
  return (
    <span className="sparkline" data-testid={testId} title={label}>
      <LineChart width={120} height={28} data={points as { t: number; v: number }[]} margin={{ top: 2, right: 2, bottom: 2, left: 2 }} accessibilityLayer={false}>
        <YAxis hide domain={['dataMin', 'dataMax']} />
        <Line dataKey="v" type="monotone" stroke="currentColor" strokeWidth={1.5} dot={false} isAnimationActive={false} />
      </LineChart>
      <span className="visually-hidden">{label}: latest {last}</span>
    </span>
  );
}
