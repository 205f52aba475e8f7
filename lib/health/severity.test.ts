import { describe, expect, it } from 'vitest';
import type { Severity } from '@/lib/health/types';
import { compareSeverity, SEVERITY_ORDER, severityRank, worstByDetector, worstSeverity } from './severity';

const f = (severity: Severity, detector = 'catalog-replicas') => ({ severity, detector });

describe('severity order', () => {
  it('ranks critical worst and ok best, and compares by rank', () => {
    expect(SEVERITY_ORDER.map(severityRank)).toEqual([0, 1, 2, 3]);
    expect([...SEVERITY_ORDER].reverse().sort(compareSeverity)).toEqual(['critical', 'warning', 'info', 'ok']);
  });
});

describe('worstSeverity', () => {
  it('orders critical > warning > info > ok', () => {
    expect(worstSeverity([])).toBe('ok');
    expect(worstSeverity([{ severity: 'info' }, { severity: 'warning' }])).toBe('warning');
    expect(worstSeverity([{ severity: 'ok' }, { severity: 'critical' }, { severity: 'info' }])).toBe('critical');
  });
  it('finds the worst severity overall and per detector', () => {
    expect(worstSeverity([])).toBe('ok');
    expect(worstSeverity([f('info'), f('warning')])).toBe('warning');
    expect(worstByDetector([f('info'), f('warning'), f('critical', 'x')])).toEqual({
      'catalog-replicas': 'warning',
      x: 'critical',
    });
  });
});
