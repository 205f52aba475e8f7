/**
 * Time series with bounded memory: when one reaches `2 * capacity` points, the older half is thinned to every
 * other point, so recent data keeps full resolution and the whole history stays within a fixed budget.
 */
import type { ClusterSeriesDto, SamplePointDto, TransitionDto } from '@/lib/api/dto';

/** Points kept per series for a chart (the wire limit) and half the retained budget of {@link SampleColumns}. */
export const SERIES_CAPACITY = 1_000;

/**
 * Points a series makes room for at first (it doubles from there). 8 times of 8 bytes are 64, the most V8 keeps a
 * typed array's data on its own heap for; a larger one gets an ArrayBuffer outside it, and each counts as external
 * memory, which V8 answers with marking on the main thread. An idle cluster's series stay a few points long: at
 * 3,500 clusters their first samples, taken as the fleet synced, made those bursts of marking.
 */
const INITIAL_POINTS = 8;

/**
 * One detector's samples in columns (times as float64, each named value as float32, NaN for null) rather than an
 * object per point: about 20 bytes per point instead of 150, which is what a fleet of 500 clusters with several
 * detectors each, sampled every second, can afford. At `2 * capacity` points the older half keeps every other point.
 * A run of equal points is kept as its first and last point (an idle cluster's series stay a few points long, not
 * thousands); a window that starts or ends inside such a run gets the run's value at its edge.
 */
export class SampleColumns {
  private times: Float64Array;
  private readonly columns = new Map<string, Float32Array>();
  private count = 0;

  constructor(private readonly capacity: number = SERIES_CAPACITY) {
    this.times = new Float64Array(Math.min(INITIAL_POINTS, capacity * 2));
  }

  get length(): number {
    return this.count;
  }

  /** Appends a point (times must not go backwards; a point at the last time replaces nothing, it is added). */
  append(point: SamplePointDto): void {
    if (this.extendsRun(point)) {
      this.times[this.count - 1] = point.t;
      return;
    }
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

  /**
   * True when the point repeats the last two (stored as float32): the last point, the end of a run, moves to it.
   * The run's start stays, so a chart still draws the flat line from where it began.
   */
  private extendsRun(point: SamplePointDto): boolean {
    if (this.count < 2) return false;
    for (const name of Object.keys(point.values)) if (!this.columns.has(name)) return false;
    for (const [name, column] of this.columns) {
      const value = point.values[name];
      const stored = value === undefined || value === null ? Number.NaN : Math.fround(value);
      if (!same(column[this.count - 1], stored) || !same(column[this.count - 2], stored)) return false;
    }
    return true;
  }

  private equalAt(a: number, b: number): boolean {
    for (const column of this.columns.values()) if (!same(column[a], column[b])) return false;
    return true;
  }

  /** The points between `from` and `to` (inclusive), at most `max`, evenly strided, always ending with the last. */
  points(max: number, from = -Infinity, to = Infinity): SamplePointDto[] {
    let first = 0;
    while (first < this.count && this.times[first] < from) first += 1;
    let end = this.count;
    while (end > first && this.times[end - 1] > to) end -= 1;
    // An edge inside a run of equal points (kept as its two ends) shows the run's value there.
    const inRun = (before: number) =>
      before >= 0 && before + 1 < this.count && this.equalAt(before, before + 1) ? before : undefined;
    const head =
      Number.isFinite(from) && (first >= this.count || this.times[first] > from) ? inRun(first - 1) : undefined;
    const tail = Number.isFinite(to) && (end === 0 || this.times[end - 1] < to) ? inRun(end - 1) : undefined;
    const edges = (head === undefined ? 0 : 1) + (tail === undefined ? 0 : 1);
    const span = end - first;
    const room = Math.max(0, max - edges);
    const indexes: number[] = [];
    if (span <= room) for (let i = first; i < end; i += 1) indexes.push(i);
    else if (room > 0) {
      const stride = span / room;
      for (let i = 0; i < room - 1; i += 1) indexes.push(first + Math.floor(i * stride));
      indexes.push(end - 1);
    }
    const out = indexes.map((i) => this.pointAt(i));
    if (head !== undefined) out.unshift({ ...this.pointAt(head), t: from });
    if (tail !== undefined && (tail !== head || from !== to)) out.push({ ...this.pointAt(tail), t: to });
    return out;
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

function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
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
