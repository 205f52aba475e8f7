import type { TransitionDto } from '@/lib/api/dto';
import { rangeStart, type TimeRange } from './time-range';

/** How a condition status reads for an SRE: healthy, a problem, or in between (progressing, unknown). */
export type ConditionTone = 'good' | 'bad' | 'neutral';

// Condition types whose True means trouble; for every other type True is the healthy state.
const TRUE_IS_BAD = new Set([
  'Degraded',
  'Failing',
  'Failed',
  'Retrying',
  'Blocked',
  'Deprecated',
  'PackageDeprecated',
  'ChannelDeprecated',
  'BundleDeprecated',
  'RetrievedManifests',
]);
const TRUE_IS_NEUTRAL = new Set(['Progressing']);

/** Tone of a condition status by type: `Available=False` and `Degraded=True` are bad, `Progressing=True` is neutral. */
export function conditionTone(type: string, status: string): ConditionTone {
  if (status !== 'True' && status !== 'False') return 'neutral';
  if (TRUE_IS_NEUTRAL.has(type)) return status === 'True' ? 'neutral' : 'good';
  const good = TRUE_IS_BAD.has(type) ? status === 'False' : status === 'True';
  return good ? 'good' : 'bad';
}

/** A period during which one condition held one status/reason/message. `to` is null while it still holds. */
export interface ConditionSegment {
  from: number;
  to: number | null;
  status: string;
  tone: ConditionTone;
  reason?: string;
  message?: string;
}

/** All segments of one condition type of one object. */
export interface ConditionLane {
  /** Stable key: `Kind/namespace/name:Type`. */
  key: string;
  label: string;
  segments: ConditionSegment[];
  /** Transitions seen in the window (a proxy for reconcile cadence). */
  changes: number;
}

/**
 * Groups condition transitions into one lane per object and condition type, each a run of segments oldest first,
 * clipped to the time range and capped at `maxSegments` per lane (newest kept). A transition that repeats the
 * status, reason and message of the previous one is still a change (a reconcile that rewrote the condition).
 */
export function toConditionTimeline(
  transitions: readonly TransitionDto[],
  { now, range, maxSegments = 200 }: { now: number; range: TimeRange; maxSegments?: number },
): ConditionLane[] {
  const from = rangeStart(now, range);
  const byLane = new Map<string, { label: string; items: TransitionDto[] }>();
  for (const tr of transitions) {
    const ns = tr.ref.namespace ? `${tr.ref.namespace}/` : '';
    const key = `${tr.ref.kind}/${ns}${tr.ref.name}:${tr.type}`;
    const lane = byLane.get(key) ?? { label: `${tr.ref.kind} ${ns}${tr.ref.name} · ${tr.type}`, items: [] };
    lane.items.push(tr);
    byLane.set(key, lane);
  }
  const lanes: ConditionLane[] = [];
  for (const [key, { label, items }] of byLane) {
    const sorted = items
      .map((tr) => ({ tr, at: Date.parse(tr.at) }))
      .filter((x) => !Number.isNaN(x.at))
      .sort((a, b) => a.at - b.at);
    const segments: ConditionSegment[] = sorted.map(({ tr, at }, i) => ({
      from: at,
      to: i + 1 < sorted.length ? sorted[i + 1].at : null,
      status: tr.status,
      tone: conditionTone(tr.type, tr.status),
      reason: tr.reason,
      message: tr.message,
    }));
    const visible = segments.filter((s) => (s.to ?? Infinity) >= from && s.from <= now);
    const clipped = visible.slice(-maxSegments).map((s) => (s.from < from ? { ...s, from } : s));
    lanes.push({ key, label, segments: clipped, changes: visible.filter((s) => s.from >= from).length });
  }
  return lanes.sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Comparator for lanes, problem first: a lane whose current (last) segment is bad, then lanes with more bad
 * segments in the window, then more changes, then by label — so a Degraded operator heads flapping healthy ones.
 */
export function compareLanes(a: ConditionLane, b: ConditionLane): number {
  const badNow = (l: ConditionLane): number => (l.segments[l.segments.length - 1]?.tone === 'bad' ? 1 : 0);
  const bad = (l: ConditionLane): number => l.segments.filter((s) => s.tone === 'bad').length;
  return badNow(b) - badNow(a) || bad(b) - bad(a) || b.changes - a.changes || a.label.localeCompare(b.label);
}

/**
 * The `max` most telling lanes in {@link compareLanes} order, how many were left out and those quieter lanes
 * (same order), so failing or flapping objects stay visible among hundreds of conditions and the rest can be shown.
 */
export function busiestLanes(
  lanes: readonly ConditionLane[],
  max: number,
): {
  lanes: ConditionLane[];
  hidden: number;
  rest: ConditionLane[];
} {
  const ordered = [...lanes].sort(compareLanes);
  const rest = ordered.slice(max);
  return { lanes: ordered.slice(0, max), hidden: rest.length, rest };
}
