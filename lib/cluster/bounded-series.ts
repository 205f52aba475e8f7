/**
 * Time series with bounded memory: when one reaches `2 * capacity` points, the older half is thinned to every
 * other point, so recent data keeps full resolution and the whole history stays within a fixed budget.
 */
import type { ClusterSeriesDto, SamplePointDto, TransitionDto } from '@/lib/api/dto';

/** Points kept per series for a chart (the wire limit) and half the retained budget of {@link SampleColumns}. */
export const SERIES_CAPACITY = 1_000;

/**
 * One detector's samples in columns (times as float64, each named value as float32, NaN for null) rather than an
 * object per point: about 20 bytes per point instead of 150, which is what a fleet of 500 clusters with several
 * detectors each, sampled every second, can afford. At `2 * capacity` points the older half keeps every other point.
 */
export class SampleColumns {
  private times: Float64Array;
  private readonly columns = new Map<string, Float32Array>();
  private count = 0;

  constructor(private readonly capacity: number = SERIES_CAPACITY) {
    this.times = new Float64Array(Math.min(64, capacity * 2));
  }

  get length(): number {
    return this.count;
  }

  /** Appends a point (times must not go backwards; a point at the last time replaces nothing, it is added). */
  append(point: SamplePointDto): void {
    if (this.count === this.times.length) this.grow();
    const at = this.count;
    this.times[at] = point.t;
    for (const [name, value] of Object.entries(point.values)) {
      let column = this.columns.get(name);
      if (!column) {
        column = new Float32Array(this.times.length).fill(Number.NaN);
        this.columns.set(name, column);
      }
      column[at] = value ?? Number.NaN;
    }
    for (const [name, column] of this.columns) if (!(name in point.values)) column[at] = Number.NaN;
    this.count += 1;
    if (this.count >= this.capacity * 2) this.thin();
  }

  /** The points between `from` and `to` (inclusive), at most `max`, evenly strided, always ending with the last. */
  points(max: number, from = -Infinity, to = Infinity): SamplePointDto[] {
    let first = 0;
    while (first < this.count && this.times[first] < from) first += 1;
    let end = this.count;
    while (end > first && this.times[end - 1] > to) end -= 1;
    const span = end - first;
    if (span <= 0) return [];
    const indexes: number[] = [];
    if (span <= max) for (let i = first; i < end; i += 1) indexes.push(i);
    else {
      const stride = span / max;
      for (let i = 0; i < max - 1; i += 1) indexes.push(first + Math.floor(i * stride));
      indexes.push(end - 1);
    }
    return indexes.map((i) => this.pointAt(i));
  }

  private pointAt(index: number): SamplePointDto {
    const values: Record<string, number | null> = {};
    for (const [name, column] of this.columns) {
      const value = column[index];
      // Stored as float32: round to what a chart can show so 0.1 does not come back as 0.10000000149.
      values[name] = Number.isNaN(value) ? null : Number(value.toPrecision(7));
    }
    return { t: this.times[index], values };
  }

  private grow(): void {
    const size = Math.min(this.times.length * 2, this.capacity * 2);
    const times = new Float64Array(size);
    times.set(this.times);
    this.times = times;
    for (const [name, column] of this.columns) {
      const grown = new Float32Array(size).fill(Number.NaN);
      grown.set(column);
      this.columns.set(name, grown);
    }
  }

  private thin(): void {
    const half = Math.floor(this.count / 2);
    const keep = (array: Float64Array | Float32Array) => {
      let to = 0;
      for (let from = 0; from < half; from += 2) array[to++] = array[from];
      array.copyWithin(to, half, this.count);
      return to + (this.count - half);
    };
    const length = keep(this.times);
    for (const column of this.columns.values()) keep(column);
    this.count = length;
  }
}

/**
 * `GET /api/clusters/{id}/series` of one cluster: every detector's samples windowed to at most `max` points (capped
 * at {@link SERIES_CAPACITY}) and the transitions between `from` and `to` (epoch ms, cluster time, inclusive).
 */
export function seriesWindow(input: {
  clusterId: string;
  now: number;
  samples: ReadonlyMap<string, SampleColumns>;
  transitions: readonly TransitionDto[];
  from?: number;
  to?: number;
  max?: number;
}): ClusterSeriesDto {
  const { from, to } = input;
  const limit = Math.min(input.max ?? SERIES_CAPACITY, SERIES_CAPACITY);
  const samples: Record<string, SamplePointDto[]> = {};
  for (const [detector, points] of input.samples) samples[detector] = points.points(limit, from, to);
  const inRange = (at: string) => {
    const t = Date.parse(at);
    return (from === undefined || t >= from) && (to === undefined || t <= to);
  };
  return {
    clusterId: input.clusterId,
    now: input.now,
    samples,
    transitions: input.transitions.filter((entry) => inRange(entry.at)),
  };
}
