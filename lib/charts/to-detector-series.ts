import type { SamplePointDto } from '@/lib/api/dto';
import { detectorSpec } from './detectors';
import { downsample, downsampleSamples, MAX_POINTS } from './downsample';
import { rangeStart, type TimeRange } from './time-range';

/** One chart row: time plus one value (or gap) per channel key. */
export type ChartRow = { t: number } & Record<string, number | null>;

/** Chart-ready series of one detector. `keys` lists channels that hold at least one number in the window. */
export interface DetectorSeries {
  rows: ChartRow[];
  keys: string[];
  /** Last non-null value per key in the window. */
  latest: Record<string, number | null>;
}

/** Options of the series builders: window end (cluster time), range and point cap. */
export interface SeriesOptions {
  now: number;
  range: TimeRange;
  max?: number;
}

/**
 * Shapes a detector's samples into chart rows for `keys`: keeps the window, orders by time, fills absent channels
 * with `null` (a gap, never 0) and caps the rows at `max` (default 1,000) by min-max downsampling.
 */
export function toDetectorSeries(
  samples: readonly SamplePointDto[] | undefined,
  keys: readonly string[],
  { now, range, max = MAX_POINTS }: SeriesOptions,
): DetectorSeries {
  const from = rangeStart(now, range);
  const inWindow = (samples ?? []).filter((p) => p.t >= from && p.t <= now).sort((a, b) => a.t - b.t);
  const rows = downsampleSamples(inWindow, max).map((p) => {
    const row: ChartRow = { t: p.t };
    for (const k of keys) row[k] = typeof p.values[k] === 'number' && Number.isFinite(p.values[k]) ? p.values[k] : null;
    return row;
  });
  const latest: Record<string, number | null> = {};
  for (const k of keys) {
    const last = [...rows].reverse().find((r) => r[k] !== null);
    latest[k] = last ? last[k] : null;
  }
  return { rows, keys: keys.filter((k) => latest[k] !== null), latest };
}

/** {@link toDetectorSeries} with the channel keys declared for `detector` in `DETECTOR_SPECS`. */
export function toSeriesFor(
  detector: string,
  samples: readonly SamplePointDto[] | undefined,
  opts: SeriesOptions,
): DetectorSeries {
  return toDetectorSeries(samples, detectorSpec(detector)?.channels.map((c) => c.key) ?? [], opts);
}

/** Catalog replicas (C): desired, ready, available, PDB disruptionsAllowed. */
export const toReplicaSeries = (samples: readonly SamplePointDto[] | undefined, opts: SeriesOptions): DetectorSeries =>
  toSeriesFor('catalog-replicas', samples, opts);

/** Pod-setup latency (D): p50, p95, p99 in seconds. Empty rows when no metrics source exists. */
export const toLatencySeries = (samples: readonly SamplePointDto[] | undefined, opts: SeriesOptions): DetectorSeries =>
  toSeriesFor('pod-setup-latency', samples, opts);

/** FeatureGate coverage (A): required, present and missing version counts. */
export const toFeatureGateSeries = (
  samples: readonly SamplePointDto[] | undefined,
  opts: SeriesOptions,
): DetectorSeries => toSeriesFor('featuregate-coverage', samples, opts);

/** Status-write rejection (B): rejected capability values and status staleness in seconds. */
export const toStatusWriteSeries = (
  samples: readonly SamplePointDto[] | undefined,
  opts: SeriesOptions,
): DetectorSeries => toSeriesFor('status-write-rejection', samples, opts);

/** Install settling (E): failure streak length and status changes in the last minute. */
export const toSettlingSeries = (samples: readonly SamplePointDto[] | undefined, opts: SeriesOptions): DetectorSeries =>
  toSeriesFor('install-settling', samples, opts);

/** Update progress: completion %, updated/unavailable/degraded operators, updated nodes. */
export const toProgressSeries = (samples: readonly SamplePointDto[] | undefined, opts: SeriesOptions): DetectorSeries =>
  toSeriesFor('update-progress', samples, opts);

/** Sparkline points of one channel between `from` and `to` (epoch ms, inclusive), gaps dropped, at most `max`. */
export function toSparkline(
  samples: readonly SamplePointDto[] | undefined,
  key: string,
  { from = -Infinity, to = Infinity, max = 60 }: { from?: number; to?: number; max?: number } = {},
): { t: number; v: number }[] {
  const pts = (samples ?? [])
    .filter((p) => p.t >= from && p.t <= to && typeof p.values[key] === 'number' && Number.isFinite(p.values[key]))
    .map((p) => ({ t: p.t, v: p.values[key] as number }))
    .sort((a, b) => a.t - b.t);
  return downsample(pts, max);
}
