/**
 * The cluster page's finding timeline: each finding episode a bar (split where its severity changed) in its own lane,
 * over the ClusterVersion history's update windows. Pure; at most {@link MAX_BAR_POINTS} points (two per segment),
 * the oldest episodes left out first and counted.
 */
import type { ClusterInfoDto, SeverityDto } from '@/lib/api/dto';
import type { TimelineEntryDto } from '@/lib/api/history-dto';

/** Chart points the finding timeline draws at most (two per bar segment). */
export const MAX_BAR_POINTS = 1_000;

/** One stretch of a bar at one severity (epoch ms). */
export interface BarSegment {
  start: number;
  end: number;
  severity: SeverityDto;
}

/** One finding episode in its lane. */
export interface FindingBar {
  findingId: string;
  title: string;
  detector: string;
  lane: number;
  start: number;
  end: number;
  /** Still open at the window's end (the bar runs on). */
  open: boolean;
  segments: BarSegment[];
}

/** One ClusterVersion history entry's update window (start to completion, or to the window's end while partial). */
export interface VersionSpan {
  version: string;
  state: string;
  start: number;
  end: number;
  ongoing: boolean;
}

/** What the finding timeline draws. */
export interface FindingBarsChart {
  from: number;
  to: number;
  /** One lane per finding (episodes of one finding share it), in order of first opening. */
  lanes: { findingId: string; title: string }[];
  bars: FindingBar[];
  versions: VersionSpan[];
  /** Episodes left out to stay under the point budget (the oldest). */
  omitted: number;
  points: number;
}

const clamp = (t: number, from: number, to: number) => Math.min(to, Math.max(from, t));

function segmentsOf(entry: TimelineEntryDto, start: number, end: number): BarSegment[] {
  const cuts = [
    { at: Date.parse(entry.openedAt), severity: entry.openedSeverity },
    ...entry.changes
      .filter((change) => change.kind === 'severity')
      .map((change) => ({ at: Date.parse(change.at), severity: change.severity })),
  ];
  const segments: BarSegment[] = [];
  cuts.forEach((cut, i) => {
    const s = Math.max(start, cut.at);
    const e = Math.min(end, i + 1 < cuts.length ? cuts[i + 1].at : end);
    if (e > s || (e === s && cuts.length === 1)) segments.push({ start: s, end: e, severity: cut.severity });
  });
  return segments;
}

/**
 * Builds the chart for [from, to] (epoch ms, cluster time) from timeline entries and the ClusterVersion history
 * (served newest first). `max` caps the points (≤ {@link MAX_BAR_POINTS}).
 */
export function toFindingBars(
  entries: readonly TimelineEntryDto[],
  history: ClusterInfoDto['history'],
  window: { from: number; to: number },
  max: number = MAX_BAR_POINTS,
): FindingBarsChart {
  const { from, to } = window;
  const budget = Math.min(max, MAX_BAR_POINTS);
  const candidates = entries
    .map((entry) => {
      const start = clamp(Date.parse(entry.openedAt), from, to);
      const end = entry.resolvedAt === null ? to : clamp(Date.parse(entry.resolvedAt), from, to);
      return { entry, start, end, segments: segmentsOf(entry, start, end) };
    })
    .filter((bar) => bar.segments.length > 0)
    .sort((a, b) => b.start - a.start);
  const kept: typeof candidates = [];
  let points = 0;
  for (const bar of candidates) {
    if (points + 2 * bar.segments.length > budget) break;
    kept.push(bar);
    points += 2 * bar.segments.length;
  }
  kept.reverse();
  const lanes: FindingBarsChart['lanes'] = [];
  const laneOf = new Map<string, number>();
  const bars = kept.map(({ entry, start, end, segments }) => {
    let lane = laneOf.get(entry.findingId);
    if (lane === undefined) {
      lane = lanes.length;
      laneOf.set(entry.findingId, lane);
      lanes.push({ findingId: entry.findingId, title: entry.title });
    }
    return {
      findingId: entry.findingId,
      title: entry.title,
      detector: entry.detector,
      lane,
      start,
      end,
      open: entry.resolvedAt === null,
      segments,
    };
  });
  const versions = history
    .flatMap((entry): VersionSpan[] => {
      const started = entry.startedTime ? Date.parse(entry.startedTime) : NaN;
      if (!Number.isFinite(started) || started > to) return [];
      const completed = entry.completionTime ? Date.parse(entry.completionTime) : NaN;
      const ongoing = !Number.isFinite(completed);
      const end = ongoing ? to : completed;
      if (end < from) return [];
      return [
        {
          version: entry.version,
          state: entry.state,
          start: clamp(started, from, to),
          end: clamp(end, from, to),
          ongoing,
        },
      ];
    })
    .reverse();
  return { from, to, lanes, bars, versions, omitted: candidates.length - kept.length, points };
}
