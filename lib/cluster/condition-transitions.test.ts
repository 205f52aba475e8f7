import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { conditionTransitions } from './condition-transitions';
import { SampleColumns } from './bounded-series';

const extension = (conditions: object[]): KubeObject => ({
  apiVersion: 'olm.operatorframework.io/v1',
  kind: 'ClusterExtension',
  metadata: { name: 'argocd' },
  status: { conditions },
});

describe('conditionTransitions', () => {
  it('records a message-only change, which lastTransitionTime would hide', () => {
    const before = extension([{ type: 'Progressing', status: 'True', reason: 'Retrying', message: 'root cause' }]);
    const after = extension([
      { type: 'Progressing', status: 'True', reason: 'Retrying', message: 'namespace "argocd" is being terminated' },
    ]);
    expect(conditionTransitions(before, after, '2026-11-22T09:00:00Z')).toEqual([
      {
        ref: { apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', name: 'argocd' },
        type: 'Progressing',
        status: 'True',
        reason: 'Retrying',
        message: 'namespace "argocd" is being terminated',
        at: '2026-11-22T09:00:00Z',
      },
    ]);
  });

  it('records every condition of a new object and nothing for an unchanged one', () => {
    const object = extension([
      { type: 'Installed', status: 'False', reason: 'Failed' },
      { type: 'Progressing', status: 'True' },
    ]);
    expect(conditionTransitions(undefined, object, 't')).toHaveLength(2);
    expect(conditionTransitions(object, structuredClone(object), 't')).toEqual([]);
    expect(conditionTransitions(object, undefined, 't')).toEqual([]);
  });
});

describe('bounded series (columns)', () => {
  it('never holds more than twice the capacity and keeps the newest points exact', () => {
    const series = new SampleColumns(100);
    for (let t = 0; t < 10_000; t += 1) series.append({ t, values: { v: t } });
    expect(series.length).toBeLessThan(200);
    const points = series.points(1_000);
    expect(points.at(-1)).toEqual({ t: 9_999, values: { v: 9_999 } });
    expect(points.map((point) => point.t)).toEqual([...points.map((point) => point.t)].sort((a, b) => a - b));
    // Thinning keeps a point and its values together.
    expect(points.every((point) => point.values.v === point.t)).toBe(true);
  });

  it('windows to at most max points and keeps the last one', () => {
    const series = new SampleColumns(5_000);
    for (let t = 0; t < 5_000; t += 1) series.append({ t, values: { v: t } });
    const out = series.points(1_000);
    expect(out).toHaveLength(1_000);
    expect(out.at(-1)?.t).toBe(4_999);
    expect(series.points(1_000, 100, 200)).toHaveLength(101);
    expect(series.points(1_000, 6_000)).toEqual([]);
  });

  it('keeps a run of equal points as its first and last, so an idle series stays a few points long', () => {
    const series = new SampleColumns(1_000);
    for (let t = 0; t < 5_000; t += 1) series.append({ t, values: { v: 0.1, gone: null } });
    expect(series.length).toBe(2);
    expect(series.points(1_000)).toEqual([
      { t: 0, values: { v: 0.1, gone: null } },
      { t: 4_999, values: { v: 0.1, gone: null } },
    ]);
    series.append({ t: 5_000, values: { v: 2, gone: null } });
    series.append({ t: 5_001, values: { v: 2, gone: null, late: 1 } });
    expect(series.points(1_000).map((point) => [point.t, point.values.v, point.values.late])).toEqual([
      [0, 0.1, null],
      [4_999, 0.1, null],
      [5_000, 2, null],
      [5_001, 2, 1],
    ]);
  });

  it('gives a window that starts or ends inside a run the run value at its edges', () => {
    const series = new SampleColumns(1_000);
    for (let t = 0; t <= 100; t += 1) series.append({ t, values: { v: 1 } });
    for (let t = 101; t <= 200; t += 1) series.append({ t, values: { v: t } });
    expect(series.points(1_000, 10, 20)).toEqual([
      { t: 10, values: { v: 1 } },
      { t: 20, values: { v: 1 } },
    ]);
    const crossing = series.points(1_000, 50, 103);
    expect(crossing.map((point) => [point.t, point.values.v])).toEqual([
      [50, 1],
      [100, 1],
      [101, 101],
      [102, 102],
      [103, 103],
    ]);
    expect(series.points(3, 50, 150)).toHaveLength(3);
    expect(series.points(3, 50, 150)[0]).toEqual({ t: 50, values: { v: 1 } });
  });

  it('keeps nulls and values that appear or vanish later, at chart precision', () => {
    const series = new SampleColumns(10);
    series.append({ t: 1, values: { a: 0.1, b: null } });
    series.append({ t: 2, values: { a: 2.5 } });
    series.append({ t: 3, values: { a: 3, c: 1234.5678 } });
    expect(series.points(10)).toEqual([
      { t: 1, values: { a: 0.1, b: null, c: null } },
      { t: 2, values: { a: 2.5, b: null, c: null } },
      { t: 3, values: { a: 3, b: null, c: 1234.568 } },
    ]);
  });
});
