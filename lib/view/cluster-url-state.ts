import type { FindingDto } from '@/lib/api/dto';
import { parseTimeRange, DEFAULT_RANGE, type TimeRange } from '@/lib/charts/time-range';

/** The cluster view's URL state beyond the path: `?range=&panel=&finding=&target=&at=`. */
export interface ClusterUrlState {
  range: TimeRange;
  /** Focused detector panel id, or null. */
  panel: string | null;
  /** Finding whose evidence drawer is open (its id, or a detector id: see {@link linkedFinding}), or null. */
  finding: string | null;
  /** Update target whose details "Before you update" shows, or null (the newest). */
  target: string | null;
  /**
   * The moment the page shows the cluster as it stood (`?at=`, RFC 3339, normalised to UTC with milliseconds), or
   * null for live. A value that is not a time reads as live.
   */
  at: string | null;
}

/** A `?at=` value as the normalised RFC 3339 time it names, or null when it names none. */
export function parseAt(value: string | null | undefined): string | null {
  if (!value) return null;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/**
 * Reads the cluster view state from search params; unknown ranges fall back to `defaultRange` (a frozen incident
 * opens on its whole window, the live view on {@link DEFAULT_RANGE}).
 */
export function parseClusterUrlState(
  params: URLSearchParams,
  defaultRange: TimeRange = DEFAULT_RANGE,
): ClusterUrlState {
  return {
    range: parseTimeRange(params.get('range'), defaultRange),
    panel: params.get('panel') || null,
    finding: params.get('finding') || null,
    target: params.get('target') || null,
    at: parseAt(params.get('at')),
  };
}

/**
 * Merges `patch` into the current search params and returns the query string (with `?`, or '' when empty).
 * Defaults are omitted so URLs stay short; unrelated params are kept.
 */
export function withClusterUrlState(
  current: URLSearchParams,
  patch: Partial<ClusterUrlState>,
  defaultRange: TimeRange = DEFAULT_RANGE,
): string {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | null | undefined): void => {
    if (value) next.set(key, value);
    else next.delete(key);
  };
  if ('range' in patch) set('range', patch.range === defaultRange ? null : patch.range);
  if ('panel' in patch) set('panel', patch.panel);
  if ('finding' in patch) set('finding', patch.finding);
  if ('target' in patch) set('target', patch.target);
  if ('at' in patch) set('at', patch.at);
  const s = next.toString();
  return s ? `?${s}` : '';
}

/**
 * The finding `?finding=` names: the finding with that id, else that detector's first finding in `findings` (pass
 * them worst first, as the list shows them). Alerts link by detector, since their labels carry no object names.
 */
export function linkedFinding<T extends Pick<FindingDto, 'id' | 'detector'>>(
  findings: readonly T[],
  ref: string,
): T | undefined {
  return findings.find((f) => f.id === ref) ?? findings.find((f) => f.detector === ref);
}
