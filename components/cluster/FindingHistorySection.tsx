'use client';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ClusterInfoDto } from '@/lib/api/dto';
import { toFindingBars } from '@/lib/charts/to-finding-bars';
import type { TimeRange } from '@/lib/charts/time-range';
import { historyQueries } from '@/lib/queries/history-queries';
import { FindingTimeline } from './FindingTimeline';
import styles from './cluster.module.css';

const MINUTE = 60_000;
const RANGE_MS: Record<TimeRange, number> = {
  '15m': 15 * MINUTE,
  '1h': 60 * MINUTE,
  '6h': 360 * MINUTE,
  all: 1_440 * MINUTE,
};

/**
 * The window the finding timeline shows: the chart range ending now (cluster time, to the minute so the query is
 * not asked again every second), or, when the moment shown is before it, the range centred on that moment.
 */
export function timelineWindow(now: number, range: TimeRange, at: number | null): { from: number; to: number } {
  const length = RANGE_MS[range];
  const end = Math.ceil(now / MINUTE) * MINUTE;
  if (at === null || at >= end - length) return { from: end - length, to: end };
  return { from: at - length / 2, to: at + length / 2 };
}

/** The finding history drawn over the update windows, with a field to show the cluster as of any moment. */
export function FindingHistorySection({
  id,
  now,
  range,
  at,
  history,
  onPick,
}: {
  id: string;
  /** The cluster's now (epoch ms, cluster time), from its series. */
  now: number;
  range: TimeRange;
  at: number | null;
  history: ClusterInfoDto['history'];
  onPick: (at: number | null) => void;
}) {
  const window = timelineWindow(now, range, at);
  const timeline = useQuery(historyQueries.timeline(id, window));
  const chart = useMemo(
    () => (timeline.data ? toFindingBars(timeline.data.entries, history, window) : undefined),
    // The window is derived from these three.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [timeline.data, history, window.from, window.to],
  );
  const [typed, setTyped] = useState('');
  const typedAt = Date.parse(typed);
  return (
    <>
      <form
        className={styles.sectionHead}
        onSubmit={(event) => {
          event.preventDefault();
          if (Number.isFinite(typedAt)) onPick(typedAt);
        }}
      >
        <label htmlFor="time-travel-at">Show the cluster as of (UTC)</label>
        <input
          id="time-travel-at"
          type="text"
          placeholder="2026-11-25T10:10:00Z"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          aria-invalid={typed !== '' && !Number.isFinite(typedAt)}
        />
        <button type="submit" className="btn btn-small" disabled={!Number.isFinite(typedAt)}>
          Show
        </button>
      </form>
      {timeline.isError ? <p role="alert">Cannot load the finding history: {timeline.error.message}</p> : null}
      {timeline.isPending ? <p role="status">Loading the finding history…</p> : null}
      {chart ? <FindingTimeline chart={chart} at={at} onPick={onPick} /> : null}
      {timeline.data && timeline.data.hiddenEntries > 0 ? (
        <p className="muted">
          {timeline.data.hiddenEntries} recorded finding(s) are not drawn: your access does not cover every object they
          were built from.
        </p>
      ) : null}
    </>
  );
}
