import { describe, expect, it } from 'vitest';
import { downsample, downsampleBy, downsampleSamples } from './downsample';

const wave = (n: number) => Array.from({ length: n }, (_, i) => ({ t: i * 1000, v: Math.sin(i / 7) * 10 + (i % 13) }));

describe('downsample', () => {
  it('returns short inputs unchanged (as a copy)', () => {
    const pts = wave(10);
    const out = downsample(pts, 1000);
    expect(out).toEqual(pts);
    expect(out).not.toBe(pts);
  });

  it.each([5000, 1001, 20_000])('caps %i points at the default 1,000', (n) => {
    const out = downsample(wave(n));
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.length).toBeGreaterThan(900);
  });

  it('keeps the first and last point and the global extremes', () => {
    const pts = wave(10_000);
    pts[4321] = { t: 4321 * 1000, v: 999 };
    pts[7777] = { t: 7777 * 1000, v: -999 };
    const out = downsample(pts, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out[0]).toBe(pts[0]);
    expect(out[out.length - 1]).toBe(pts[pts.length - 1]);
    expect(out).toContain(pts[4321]);
    expect(out).toContain(pts[7777]);
  });

  it('keeps time order', () => {
    const out = downsample(wave(3000), 200);
    for (let i = 1; i < out.length; i++) expect(out[i].t).toBeGreaterThan(out[i - 1].t);
  });

  it('keeps a point inside runs of gaps so the gap stays visible', () => {
    const pts = Array.from({ length: 3000 }, (_, i) => ({ t: i, v: i >= 1000 && i < 2000 ? null : i }));
    const out = downsample(pts, 100);
    expect(out.some((p) => p.v === null)).toBe(true);
  });

  it('handles tiny caps', () => {
    expect(downsample(wave(10), 1)).toHaveLength(1);
    expect(downsample(wave(10), 0)).toHaveLength(0);
    expect(downsample(wave(10), 2)).toEqual([wave(10)[0], wave(10)[9]]);
  });
});

describe('downsampleBy / downsampleSamples', () => {
  it('keeps the extremes of every channel within the cap', () => {
    const pts = Array.from({ length: 5000 }, (_, i) => ({
      t: i,
      values: { a: i % 10, b: (i * 7) % 11 } as Record<string, number | null>,
    }));
    pts[1234].values.a = 500;
    pts[3210].values.b = -500;
    const out = downsampleSamples(pts, 300);
    expect(out.length).toBeLessThanOrEqual(300);
    expect(out).toContain(pts[1234]);
    expect(out).toContain(pts[3210]);
    expect(out[0]).toBe(pts[0]);
    expect(out.at(-1)).toBe(pts.at(-1));
  });

  it('accepts any accessor', () => {
    const pts = Array.from({ length: 50 }, (_, i) => [i, -i] as const);
    const out = downsampleBy(pts, 10, (p) => [p[0], p[1]]);
    expect(out.length).toBeLessThanOrEqual(10);
  });
});
