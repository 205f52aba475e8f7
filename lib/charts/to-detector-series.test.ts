import { describe, expect, it } from 'vitest';
import type { SamplePointDto } from '@/lib/api/dto';
import {
  toDetectorSeries,
  toFeatureGateSeries,
  toLatencySeries,
  toReplicaSeries,
  toSparkline,
} from './to-detector-series';

const NOW = 10 * 60 * 60_000;
const at = (minAgo: number, values: SamplePointDto['values']): SamplePointDto => ({ t: NOW - minAgo * 60_000, values });

describe('toReplicaSeries', () => {
  it('maps samples to rows for desired/ready/available/pdb, in time order, with gaps as null', () => {
    const s = toReplicaSeries(
      [
        at(1, { desired: 1, ready: 0, available: 0, pdbDisruptionsAllowed: 0 }),
        at(2, { desired: 1, ready: 1, available: 1 }),
      ],
      { now: NOW, range: '15m' },
    );
    expect(s.rows).toEqual([
      {
        t: NOW - 120_000,
        desired: 1,
        ready: 1,
        available: 1,
        pdbDisruptionsAllowed: null,
        operatorControllerReady: null,
      },
      { t: NOW - 60_000, desired: 1, ready: 0, available: 0, pdbDisruptionsAllowed: 0, operatorControllerReady: null },
    ]);
    expect(s.keys).toEqual(['desired', 'ready', 'available', 'pdbDisruptionsAllowed']);
    expect(s.latest).toEqual({
      desired: 1,
      ready: 0,
      available: 0,
      pdbDisruptionsAllowed: 0,
      operatorControllerReady: null,
    });
  });

  it('keeps only the chosen range, measured from cluster time', () => {
    const samples = [at(90, { ready: 1 }), at(30, { ready: 2 }), at(5, { ready: 3 })];
    expect(toReplicaSeries(samples, { now: NOW, range: '15m' }).rows.map((r) => r.ready)).toEqual([3]);
    expect(toReplicaSeries(samples, { now: NOW, range: '1h' }).rows.map((r) => r.ready)).toEqual([2, 3]);
    expect(toReplicaSeries(samples, { now: NOW, range: 'all' }).rows.map((r) => r.ready)).toEqual([1, 2, 3]);
  });
});

describe('toLatencySeries', () => {
  it('is empty without a metrics source', () => {
    expect(toLatencySeries(undefined, { now: NOW, range: 'all' })).toEqual({
      rows: [],
      keys: [],
      latest: { p50: null, p95: null, p99: null },
    });
  });

  it('caps rows at 1,000 and keeps the worst p99', () => {
    const samples = Array.from({ length: 3000 }, (_, i) => ({
      t: NOW - (3000 - i) * 1000,
      values: { p50: 0.1, p95: 0.3, p99: i === 1500 ? 7.5 : 0.4 },
    }));
    const s = toLatencySeries(samples, { now: NOW, range: 'all' });
    expect(s.rows.length).toBeLessThanOrEqual(1000);
    expect(Math.max(...s.rows.map((r) => r.p99 ?? 0))).toBe(7.5);
  });

  it('treats non-finite numbers as gaps', () => {
    const s = toLatencySeries([at(1, { p50: Number.NaN, p95: 1, p99: 2 })], { now: NOW, range: '15m' });
    expect(s.rows[0].p50).toBeNull();
    expect(s.keys).toEqual(['p95', 'p99']);
  });
});

describe('toFeatureGateSeries', () => {
  it('charts required/present/missing', () => {
    const s = toFeatureGateSeries([at(1, { required: 2, present: 1, missing: 1 })], { now: NOW, range: '1h' });
    expect(s.rows).toEqual([{ t: NOW - 60_000, required: 2, present: 1, missing: 1 }]);
  });
});

describe('toDetectorSeries', () => {
  it('ignores samples after now', () => {
    expect(toDetectorSeries([at(-1, { x: 1 })], ['x'], { now: NOW, range: 'all' }).rows).toEqual([]);
  });
});

describe('toSparkline', () => {
  it('keeps numbers of one key, downsampled', () => {
    const samples = Array.from({ length: 500 }, (_, i) => ({ t: i, values: { p99: i % 2 ? null : i } }));
    const out = toSparkline(samples, 'p99', { max: 60 });
    expect(out.length).toBeLessThanOrEqual(60);
    expect(out.every((p) => typeof p.v === 'number')).toBe(true);
    expect(out[0]).toEqual({ t: 0, v: 0 });
  });
  it('keeps only points inside the window', () => {
    const samples = Array.from({ length: 10 }, (_, i) => ({ t: i * 1000, values: { p99: i } }));
    expect(toSparkline(samples, 'p99', { from: 3000, to: 5000 }).map((p) => p.v)).toEqual([3, 4, 5]);
  });
});
