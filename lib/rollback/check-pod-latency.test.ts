import { describe, expect, it } from 'vitest';
import type { LatencySeries } from '@/lib/health/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { fixture, rollbackContext } from '@/server/testing/rollback-fixtures';
import { checkPodLatency } from './check-pod-latency';

const cv = fixture('oc-upgrade/status/not-upgrading-cv.yaml');
const NOW = Date.parse('2026-01-01T00:00:00Z');
const latency = (p99: number): LatencySeries => ({
  source: 'scrape',
  quantiles: {
    p50: [{ t: NOW - 30_000, v: p99 / 4 }],
    p95: [{ t: NOW - 30_000, v: p99 / 2 }],
    p99: [{ t: NOW - 30_000, v: p99 }],
  },
});

describe('checkPodLatency (ovnkube pod-creation quantiles)', () => {
  it('blocks above 3 s p99, warns above 0.5 s, passes below', () => {
    const at = (p99: number) =>
      checkPodLatency(
        rollbackContext(makeSnapshot({ clusterversions: [cv] }, { latency: latency(p99) }), '4.14.0', { now: NOW }),
      );
    expect(at(3.4).status).toBe('block');
    expect(at(3.4).detail).toContain('A rollback drains every node and recreates its pods');
    expect(at(0.9).status).toBe('warn');
    expect(at(0.2).status).toBe('pass');
  });

  it('is honest without a metrics source: warn, not pass', () => {
    const result = checkPodLatency(rollbackContext(makeSnapshot({ clusterversions: [cv] }), '4.14.0', { now: NOW }));
    expect(result).toMatchObject({ status: 'warn', title: 'Pod-setup latency unknown' });
  });
});
