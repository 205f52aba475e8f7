import { describe, expect, it } from 'vitest';
import type { ClusterHealthDto, FindingDto } from '@/lib/api/dto';
import { summaryOf } from './cluster-summary';

const finding = (id: string, severity: FindingDto['severity'], detector = 'catalog-replicas'): FindingDto => ({
  id,
  detector,
  severity,
  subject: { kind: 'Deployment', name: 'x' },
  title: `title ${id}`,
  summary: '',
  evidence: [],
  remediation: [],
});
const health = (findings: FindingDto[]): ClusterHealthDto => ({
  cluster: {
    id: 'c',
    name: 'c',
    version: '4.16.8',
    desiredVersion: '4.16.8',
    channel: null,
    history: [],
    role: 'standalone',
  },
  findings,
  updateProgress: null,
  updateRecommendations: null,
  sources: [],
});

describe('summaryOf', () => {
  it('names the worst finding (ties by id) and counts findings by severity', () => {
    const row = summaryOf(
      health([
        finding('b', 'warning'),
        finding('z', 'critical', 'featuregate-coverage'),
        finding('a', 'critical'),
        finding('i', 'info'),
        finding('o', 'ok'),
      ]),
    );
    expect(row.worstSeverity).toBe('critical');
    expect(row.worstFinding).toEqual({ id: 'a', detector: 'catalog-replicas', severity: 'critical', title: 'title a' });
    expect(row.findingCounts).toEqual({ critical: 2, warning: 1, info: 1 });
  });
  it('has no worst finding when nothing is wrong', () => {
    const row = summaryOf(health([finding('o', 'ok')]));
    expect(row.worstFinding).toBeUndefined();
    expect(row.findingCounts).toEqual({ critical: 0, warning: 0, info: 0 });
  });
  it('says how its sources stand: counts, and each one behind without the timestamps that move', () => {
    const since = '2026-11-25T10:00:00Z';
    const row = summaryOf({
      ...health([]),
      sources: [
        { resource: 'pods', status: 'synced', since, lastSyncAt: since, lastEventAt: '2026-11-25T10:00:07Z' },
        {
          resource: 'events',
          namespace: 'openshift-etcd',
          status: 'unreachable',
          since,
          error: { message: 'connect ECONNREFUSED' },
          retryAt: '2026-11-25T10:00:30Z',
        },
      ],
    });
    expect(row.sources).toEqual({
      total: 2,
      synced: 1,
      behind: [
        {
          resource: 'events',
          namespace: 'openshift-etcd',
          status: 'unreachable',
          since,
          error: { message: 'connect ECONNREFUSED' },
        },
      ],
      since,
    });
  });
});
