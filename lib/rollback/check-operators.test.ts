import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { fixture, fixtureItems, rollbackContext } from '@/server/testing/rollback-fixtures';
import { checkOperators } from './check-operators';

const cos = (name: string): KubeObject[] => fixtureItems(`oc-upgrade/status/${name}-co.yaml`);

describe('checkOperators (real ClusterOperator captures)', () => {
  it('names the unavailable and degraded operators of the 4.14.1-degraded capture', () => {
    const snapshot = makeSnapshot({
      clusterversions: [fixture('oc-upgrade/status/4.14.1-degraded-cv.yaml')],
      clusteroperators: cos('4.14.1-degraded'),
    });
    const result = checkOperators(rollbackContext(snapshot, '4.14.0-rc.3'));
    expect(['warn', 'block']).toContain(result.status);
    expect(result.detail).toMatch(/Degraded: .*|Unavailable: .*/);
    expect(result.evidence.length).toBeGreaterThan(0);
  });

  it('passes the healthy not-upgrading capture', () => {
    const snapshot = makeSnapshot({
      clusterversions: [fixture('oc-upgrade/status/not-upgrading-cv.yaml')],
      clusteroperators: cos('not-upgrading'),
    });
    const result = checkOperators(rollbackContext(snapshot, '4.14.0'));
    expect(result).toMatchObject({ status: 'pass' });
    expect(result.title).toMatch(/^All \d+ ClusterOperators Available and not Degraded$/);
  });

  it('blocks on an unavailable operator and warns when none are visible', () => {
    const [first, ...rest] = cos('not-upgrading');
    const down = structuredClone(first);
    for (const c of (down.status as { conditions: { type: string; status: string }[] }).conditions)
      if (c.type === 'Available') c.status = 'False';
    const snapshot = makeSnapshot({
      clusterversions: [fixture('oc-upgrade/status/not-upgrading-cv.yaml')],
      clusteroperators: [down, ...rest],
    });
    expect(checkOperators(rollbackContext(snapshot, '4.14.0')).status).toBe('block');
    expect(checkOperators(rollbackContext(makeSnapshot({}), '4.14.0')).status).toBe('warn');
  });
});
