'use client';
import { useState } from 'react';
import type { ConditionLane } from '@/lib/charts/to-condition-timeline';
import { formatClock, formatDateTime } from '@/lib/view/format-time';

/**
 * Condition history as lanes of segments (one per object and condition type), widths proportional to duration.
 * Each segment carries its status, reason and message as text for screen readers and tooltips. `quieter` lanes
 * (already ordered) are hidden behind a button that shows them below the others.
 */
export function ConditionTimeline({
  lanes: top,
  quieter = [],
  from,
  to,
  testId,
}: {
  lanes: readonly ConditionLane[];
  quieter?: readonly ConditionLane[];
  from: number;
  to: number;
  testId?: string;
}) {
  const [showAll, setShowAll] = useState(false);
  if (top.length === 0) return <p className="muted">No condition transitions recorded in this range.</p>;
  const lanes = showAll ? [...top, ...quieter] : top;
  const span = Math.max(1, to - from);
  return (
    <div className="timeline" data-testid={testId}>
      <p className="timeline-legend muted" aria-hidden="true">
        <span className="swatch seg-good" /> healthy <span className="swatch seg-bad" /> problem{' '}
        <span className="swatch seg-neutral" /> progressing or unknown · hover a segment for status, reason and message
      </p>
      <div className="timeline-axis muted" aria-hidden="true">
        <span>{formatDateTime(from)}</span>
        <span>{formatClock(to)} UTC</span>
      </div>
      <ul>
        {lanes.map((lane) => (
          <li key={lane.key} className="timeline-lane">
            <span className="timeline-label">
              {lane.label} <span className="muted">({lane.changes} changes)</span>
            </span>
            <ol className="timeline-track">
              {lane.segments.map((s, i) => {
                const end = s.to ?? to;
                const left = ((Math.max(s.from, from) - from) / span) * 100;
                const width = Math.max(0.4, ((end - Math.max(s.from, from)) / span) * 100);
                const text = `${s.status}${s.reason ? ` (${s.reason})` : ''} from ${formatDateTime(s.from)}${s.message ? `: ${s.message}` : ''}`;
                return (
                  <li
                    key={`${s.from}-${i}`}
                    className={`seg seg-${s.tone}`}
                    style={{ left: `${left}%`, width: `${width}%` }}
                    title={text}
                  >
                    <span className="visually-hidden">{text}</span>
                  </li>
                );
              })}
            </ol>
          </li>
        ))}
      </ul>
      {quieter.length > 0 ? (
        <button
          type="button"
          className="btn"
          aria-expanded={showAll}
          data-testid="timeline-show-all"
          onClick={() => setShowAll((v) => !v)}
        >
          {showAll ? `Hide the ${quieter.length} quieter conditions` : `Show ${quieter.length} quieter conditions`}
        </button>
      ) : null}
    </div>
  );
}
