'use client';
import type { FindingBarsChart } from '@/lib/charts/to-finding-bars';
import { timeAxisLabel } from '@/lib/charts/time-axis';
import { formatDateTime } from '@/lib/view/format-time';
import styles from './cluster.module.css';

const LANE = 22;
const TOP = 26;
const LABEL = 220;
const WIDTH = 900;
const COLOUR: Record<string, string> = {
  critical: 'var(--critical, #c9190b)',
  warning: 'var(--warning, #f0ab00)',
  info: 'var(--info, #2b9af3)',
  ok: 'var(--ok, #3e8635)',
};

/**
 * The finding history as bars (one lane per finding, split where severity changed) over the update windows of the
 * ClusterVersion history; a click picks the moment to show the cluster as of (`onPick`), `at` is marked.
 */
export function FindingTimeline({
  chart,
  at,
  onPick,
}: {
  chart: FindingBarsChart;
  at: number | null;
  onPick: (t: number) => void;
}) {
  const span = Math.max(1, chart.to - chart.from);
  const x = (t: number) => LABEL + ((t - chart.from) / span) * (WIDTH - LABEL - 8);
  const height = TOP + Math.max(1, chart.lanes.length) * LANE + 8;
  const pick = (event: React.MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * WIDTH;
    if (px < LABEL) return;
    onPick(Math.round(chart.from + ((px - LABEL) / (WIDTH - LABEL - 8)) * span));
  };
  const summary =
    `${chart.bars.length} finding episode(s) between ${formatDateTime(chart.from)} and ${formatDateTime(chart.to)}` +
    (chart.omitted ? `; ${chart.omitted} older one(s) not drawn` : '');
  return (
    <figure className={styles.findingTimeline} data-testid="finding-timeline">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={summary} onClick={pick}>
        {chart.versions.map((version) => (
          <g key={`${version.version}-${version.start}`} data-testid="timeline-update">
            <rect
              x={x(version.start)}
              y={2}
              width={Math.max(2, x(version.end) - x(version.start))}
              height={height - 4}
              fill="currentColor"
              opacity={0.07}
            />
            <text x={x(version.start) + 3} y={14} fontSize={11}>
              {version.ongoing ? `updating to ${version.version}` : `update to ${version.version}`}
            </text>
          </g>
        ))}
        {chart.lanes.map((lane, i) => (
          <text key={lane.findingId} x={4} y={TOP + i * LANE + 15} fontSize={11}>
            {lane.title.length > 34 ? `${lane.title.slice(0, 33)}…` : lane.title}
          </text>
        ))}
        {chart.bars.flatMap((bar) =>
          bar.segments.map((segment) => (
            <rect
              key={`${bar.findingId}-${segment.start}`}
              x={x(segment.start)}
              y={TOP + bar.lane * LANE + 4}
              width={Math.max(2, x(segment.end) - x(segment.start))}
              height={LANE - 8}
              fill={COLOUR[segment.severity]}
              data-severity={segment.severity}
            >
              <title>{`${bar.title}: ${segment.severity} from ${formatDateTime(segment.start)}`}</title>
            </rect>
          )),
        )}
        {at !== null && at >= chart.from && at <= chart.to ? (
          <line
            x1={x(at)}
            x2={x(at)}
            y1={0}
            y2={height}
            stroke="currentColor"
            strokeWidth={2}
            data-testid="timeline-at"
          />
        ) : null}
      </svg>
      <figcaption className="muted">
        {timeAxisLabel(chart.from, chart.to)} · {summary}. Click a moment to see the cluster as it stood then.
      </figcaption>
    </figure>
  );
}
