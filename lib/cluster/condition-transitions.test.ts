import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { conditionTransitions } from './condition-transitions';
import { appendBounded, windowed } from './bounded-series';

const extension = (conditions: object[]): KubeObject => ({
  apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', metadata: { name: 'argocd' }, status: { conditions },
});

describe('conditionTransitions', () => {
  it('records a message-only change, which lastTransitionTime would hide', () => {
    const before = extension([{ type: 'Progressing', status: 'True', reason: 'Retrying', message: 'root cause' }]);
    const after = extension([{ type: 'Progressing', status: 'True', reason: 'Retrying', message: 'namespace "argocd" is being terminated' }]);
    expect(conditionTransitions(before, after, '2026-11-22T09:00:00Z')).toEqual([{
      ref: { apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', name: 'argocd' },
      type: 'Progressing', status: 'True', reason: 'Retrying', message: 'namespace "argocd" is being terminated', at: '2026-11-22T09:00:00Z',
    }]);
  });

  it('records every condition of a new object and nothing for an unchanged one', () => {
    const object = extension([{ type: 'Installed', status: 'False', reason: 'Failed' }, { type: 'Progressing', status: 'True' }]);
    expect(conditionTransitions(undefined, object, 't')).toHaveLength(2);
    expect(conditionTransitions(object, structuredClone(object), 't')).toEqual([]);
    expect(conditionTransitions(object, undefined, 't')).toEqual([]);
  });
});

describe('bounded series', () => {
  it('never holds more than twice the capacity and keeps the newest points exact', () => {
    const points: { t: number; values: Record<string, number> }[] = [];
    for (let t = 0; t < 10_000; t += 1) appendBounded(points, { t, values: { v: t } }, 100);
    expect(points.length).toBeLessThan(200);
    expect(points.at(-1)?.t).toBe(9_999);
    expect(points.map((point) => point.t)).toEqual([...points.map((point) => point.t)].sort((a, b) => a - b));
  });

  it('windows to at most max points and keeps the last one', () => {
    const points = Array.from({ length: 5_000 }, (_, t) => ({ t, values: { v: t } }));
    const out = windowed(points, 1_000);
    expect(out).toHaveLength(1_000);
    expect(out.at(-1)?.t).toBe(4_999);
    expect(windowed(points, 1_000, 100, 200)).toHaveLength(101);
  });
});
