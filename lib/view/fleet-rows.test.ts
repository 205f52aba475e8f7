import { describe, expect, it } from 'vitest';
import type { SourceStateDto } from '@/lib/api/dto';
import { rowSourcesOf } from '@/lib/cluster/row-sources';
import { judgeSources } from '@/lib/health/source-applicability';
import { UPSTREAM_OLMV1_NAMESPACE } from '@/lib/health/shared/olmv1-presence';
import { sourcesCell } from './fleet-rows';

const since = '2026-01-01T00:00:00Z';
const refused = { code: 403, reason: 'Forbidden', message: 'forbidden' };
const upstream = (resource: SourceStateDto['resource']): SourceStateDto => ({
  resource,
  namespace: UPSTREAM_OLMV1_NAMESPACE,
  status: 'forbidden',
  since,
  error: refused,
});

describe('sourcesCell (the fleet row\'s "not synced")', () => {
  it('leaves out upstream OLMv1 sources an OpenShift cluster may not read', () => {
    const sources = judgeSources([
      { resource: 'clusterversions', status: 'synced', since },
      upstream('deployments'),
      upstream('leases'),
      { resource: 'pods', status: 'idle', since },
    ]);
    const row = { sources: rowSourcesOf(sources) };
    expect(row.sources.behind).toEqual([]);
    expect(sourcesCell(row)).toEqual({ state: 'synced', text: 'all synced' });
  });

  it('keeps them forbidden on a cluster that is not OpenShift, and any other source behind', () => {
    const sources = judgeSources([
      { resource: 'clusterversions', status: 'pending', since, error: { code: 404, message: 'not found' } },
      upstream('deployments'),
      { resource: 'nodes', status: 'stale', since },
    ]);
    const row = { sources: rowSourcesOf(sources) };
    expect(row.sources.behind.map((s) => `${s.resource}: ${s.status}`)).toEqual([
      'clusterversions: pending',
      'deployments: forbidden',
      'nodes: stale',
    ]);
    expect(sourcesCell(row)).toEqual({ state: 'behind', text: '3 not synced (pending, forbidden, stale)' });
  });
});
