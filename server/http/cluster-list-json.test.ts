import { describe, expect, it } from 'vitest';
import type { ClusterListDto } from '@/lib/api/dto';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { makeClusterVersion, makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { PublishedHealth } from '@/server/engine/published-health';
import { clusterListAnswer, clusterListJson } from './cluster-list-json';

const NOW = '2026-01-01T00:00:00Z';

function assessed(id: string, desired: string, installed = desired) {
  const cv = makeClusterVersion({
    desired,
    history: [
      { version: desired, state: desired === installed ? 'Completed' : 'Partial' },
      ...(desired === installed ? [] : [{ version: installed, state: 'Completed' as const }]),
    ],
  });
  const snapshot = makeSnapshot({ clusterversions: [cv] });
  return assessCluster({ id, name: id, snapshot, context: makeContext(NOW), sources: [] });
}

type Waiting = NonNullable<ClusterListDto['membership']>['waiting'];

function listOf(members: PublishedHealth[], waiting: Waiting = []): ClusterListDto {
  const clusters = members.map((member) => member.summary());
  return {
    clusters,
    membership: { discovered: clusters.length, connected: clusters.length, synced: 0, waiting, sources: [] },
  };
}

describe('the fleet list as JSON text', () => {
  it('is the text JSON.stringify gives, before and after rows change', () => {
    const members = ['a', 'b', 'c'].map((id) => new PublishedHealth(id, assessed(id, '4.14.1').health));
    const first = listOf(members);
    expect(clusterListJson(first)).toBe(JSON.stringify(first));
    // served again from the kept texts, then with one row changed
    expect(clusterListJson(listOf(members))).toBe(JSON.stringify(first));
    members[1].update(assessed('b', '4.15.0', '4.14.1'), Date.parse(NOW), false);
    const second = listOf(members, [
      { id: 'd', name: 'd', discoveredBy: { kind: 'hub', name: 'hub' }, reason: 'connecting', since: NOW },
    ]);
    expect(clusterListJson(second)).toBe(JSON.stringify(second));
    expect(clusterListJson(second)).not.toBe(JSON.stringify(first));
    expect(JSON.parse(clusterListJson(second)).clusters[1].desiredVersion).toBe('4.15.0');
  });

  it('serializes rows that are not frozen (a viewer’s own rows) as they are now', () => {
    const row = { ...new PublishedHealth('a', assessed('a', '4.14.1').health).summary() };
    const list: ClusterListDto = { ...listOf([]), clusters: [row] };
    expect(clusterListJson(list)).toBe(JSON.stringify(list));
    row.name = 'renamed';
    expect(clusterListJson(list)).toBe(JSON.stringify(list));
  });

  it('answers with the list as JSON, never cached', async () => {
    const list = listOf([new PublishedHealth('a', assessed('a', '4.14.1').health)]);
    const response = clusterListAnswer(list);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(list)));
  });
});
