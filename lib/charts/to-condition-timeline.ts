import type { TransitionDto } from '@/lib/api/dto';
import { rangeStart, type TimeRange } from './time-range';

/** A period during which one condition held one status/reason/message. `to` is null while it still holds. */
export interface ConditionSegment {
  from: number;
  to: number | null;
  status: string;
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
    const sorted = items.map((tr) => ({ tr, at: Date.parse(tr.at) })).filter((x) => !Number.isNaN(x.at)).sort((a, b) => a.at - b.at);
    const segments: ConditionSegment[] = sorted.map(({ tr, at }, i) => ({
      from: at,
      to: i + 1 < sorted.length ? sorted[i + 1].at : null,
      status: tr.status,
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
 * The `max` busiest lanes (most changes in the window, then by label) and how many were left out, so objects that
 * flap stay visible when hundreds of conditions are recorded.
 */
export function busiestLanes(lanes: readonly ConditionLane[], max: number): { lanes: ConditionLane[]; hidden: number } {
  const top = [...lanes].sort((a, b) => b.changes - a.changes || a.label.localeCompare(b.label)).slice(0, max);
  const keep = new Set(top.map((l) => l.key));
  return { lanes: lanes.filter((l) => keep.has(l.key)), hidden: lanes.length - top.length };
}
