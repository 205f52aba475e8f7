import { describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { compareSeverity, SEVERITY_ORDER, severityRank, worstByDetector, worstSeverity } from './severity';

const f = (id: string, severity: FindingDto['severity'], detector = 'catalog-replicas', title = id): FindingDto => ({
  id,
  detector,
  severity,
  subject: { kind: 'Deployment', name: 'x' },
  title,
  summary: '',
  evidence: [],
  remediation: [],
});

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
    expect(worstSeverity([f('a', 'info'), f('b', 'warning')])).toBe('warning');
    expect(worstByDetector([f('a', 'info'), f('b', 'warning'), f('c', 'critical', 'x')])).toEqual({
      'catalog-replicas': 'warning',
      x: 'critical',
    });
  });
});
