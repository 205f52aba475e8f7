import type {
  ClusterHealthDto,
  ClusterListDto,
  ClusterSeriesDto,
  SamplePointDto,
  StreamMessage,
  SummaryPatchMessage,
  TransitionDto,
} from '@/lib/api/dto';
import { applySummaryPatch } from './summary-patch';
import { downsampleSamples, MAX_POINTS } from '@/lib/charts/downsample';

/** The cached data one stream message may touch: the fleet list and one cluster's health and series. */
export interface LiveCacheSlice {
  list: ClusterListDto | undefined;
  health: ClusterHealthDto | undefined;
  series: ClusterSeriesDto | undefined;
}

/** Bounds on what live appends may grow the cache to. */
export interface LiveLimits {
  /** Points per detector series (default 1,000); beyond it the series is min-max downsampled. */
  maxPoints: number;
  /** Transitions kept per cluster (default 2,000), newest kept. */
  maxTransitions: number;
}

/** Default {@link LiveLimits}. */
export const DEFAULT_LIVE_LIMITS: LiveLimits = { maxPoints: MAX_POINTS, maxTransitions: 2000 };

/**
 * Applies one SSE message to the cached data of its cluster. Pure: returns a new slice and keeps the identity of
 * every part it did not change, so callers write back only what changed (and React keeps unchanged subtrees).
 * - `health` replaces the cluster's health and its row of the fleet list (appending the row if it is new);
 * - `summary` (the fleet page's stream) replaces the row only, and `summary-patch` changes the fields it names in the
 *   row (a patch for a row not in the list is dropped: the list's next fetch has it);
 * - `samples` appends points newer than the last cached one (a resumed stream may repeat some), then bounds; the
 *   first point of a series with none sets its `now`;
 * - `transitions` appends transitions not already cached, then keeps the newest `maxTransitions`.
 * Series messages for a cluster whose series is not cached yet are dropped: the pending fetch returns them.
 */
export function applyStreamMessage(
  slice: LiveCacheSlice,
  msg: StreamMessage,
  limits: LiveLimits = DEFAULT_LIVE_LIMITS,
): LiveCacheSlice {
  switch (msg.type) {
    case 'health':
      return { ...slice, health: msg.health, list: slice.list && upsertRow(slice.list, msg.summary) };
    case 'summary':
      return { ...slice, list: slice.list && upsertRow(slice.list, msg.summary) };
    case 'summary-patch':
      return { ...slice, list: slice.list && patchRow(slice.list, msg) };
    case 'samples':
      if (!slice.series || msg.points.length === 0) return slice;
      return { ...slice, series: appendSamples(slice.series, msg.detector, msg.points, limits.maxPoints) };
    case 'transitions':
      if (!slice.series || msg.transitions.length === 0) return slice;
      return { ...slice, series: appendTransitions(slice.series, msg.transitions, limits.maxTransitions) };
  }
}

function upsertRow(list: ClusterListDto, row: ClusterListDto['clusters'][number]): ClusterListDto {
  const i = list.clusters.findIndex((c) => c.id === row.id);
  const clusters = i < 0 ? [...list.clusters, row] : list.clusters.map((c, j) => (j === i ? row : c));
  return { ...list, clusters };
}

function patchRow(list: ClusterListDto, patch: SummaryPatchMessage): ClusterListDto {
  const i = list.clusters.findIndex((c) => c.id === patch.clusterId);
  if (i < 0) return list;
  return { ...list, clusters: list.clusters.map((c, j) => (j === i ? applySummaryPatch(c, patch) : c)) };
}

/** Appends `points` to one detector's samples of `series`, bounded to `max` points. */
export function appendSamples(
  series: ClusterSeriesDto,
  detector: string,
  points: readonly SamplePointDto[],
  max: number,
): ClusterSeriesDto {
  const old = series.samples[detector] ?? [];
  const lastT = old.length ? old[old.length - 1].t : -Infinity;
  const fresh = points.filter((p) => p.t > lastT).sort((a, b) => a.t - b.t);
  if (fresh.length === 0) return series;
  const merged = [...old, ...fresh];
  const newest = fresh[fresh.length - 1].t;
  // A series fetched before the cluster's clock was heard has no point, and a `now` the server guessed: the first
  // point is the first cluster time it knows.
  const empty = Object.values(series.samples).every((points) => !points?.length);
  return {
    ...series,
    now: empty ? newest : Math.max(series.now, newest),
    samples: { ...series.samples, [detector]: merged.length > max ? downsampleSamples(merged, max) : merged },
  };
}

/** Appends transitions not yet in `series`, keeping the newest `max`. */
export function appendTransitions(
  series: ClusterSeriesDto,
  transitions: readonly TransitionDto[],
  max: number,
): ClusterSeriesDto {
  const seen = new Set(series.transitions.map(transitionKey));
  const fresh = transitions.filter((t) => !seen.has(transitionKey(t)));
  if (fresh.length === 0) return series;
  const merged = [...series.transitions, ...fresh];
  return { ...series, transitions: merged.length > max ? merged.slice(merged.length - max) : merged };
}

function transitionKey(t: TransitionDto): string {
  return [t.ref.kind, t.ref.namespace ?? '', t.ref.name, t.type, t.status, t.reason ?? '', t.at, t.message ?? ''].join(
    '\u0000',
  );
}
