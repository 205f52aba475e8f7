'use client';
import { Line, LineChart, YAxis } from 'recharts';

/** A tiny trend line with an accessible label saying what it plots; colour follows the text colour of its container. */
export function Sparkline({ points, label, caption, testId }: { points: readonly { t: number; v: number }[]; label: string; caption?: string; testId?: string }) {
  if (points.length === 0) return <span className="muted">no data</span>;
  const last = points[points.length - 1].v;
  return (
    <span className="sparkline" data-testid={testId} title={label} role="img" aria-label={`${label}: latest ${last}`}>
      <LineChart width={120} height={28} data={points as { t: number; v: number }[]} margin={{ top: 2, right: 2, bottom: 2, left: 2 }} accessibilityLayer={false}>
        <YAxis hide domain={['dataMin', 'dataMax']} />
        <Line dataKey="v" type="monotone" stroke="currentColor" strokeWidth={1.5} dot={false} isAnimationActive={false} />
      </LineChart>
      {caption ? <span className="sparkline-caption" aria-hidden="true">{caption}</span> : null}
    </span>
  );
}
