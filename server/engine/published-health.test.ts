import { describe, expect, it } from 'vitest';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { makeClusterVersion, makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { PublishedHealth, sharedValue } from './published-health';

const NOW = '2026-01-01T00:00:00Z';

function assessed(id: string, desired: string) {
  const cv = makeClusterVersion({ desired, history: [{ version: desired, state: 'Completed' }] });
  const snapshot = makeSnapshot({ clusterversions: [cv] });
  return assessCluster({ id, name: id, snapshot, context: makeContext(NOW), sources: [] });
}

describe('published health', () => {
  it('keeps one copy of equal update recommendations across clusters, and apart what differs', () => {
    const [a, b, c] = [
      new PublishedHealth('a', assessed('a', '4.14.1').health),
      new PublishedHealth('b', assessed('b', '4.14.1').health),
      new PublishedHealth('c', assessed('c', '4.15.0').health),
    ];
    const first = assessed('a', '4.14.1');
    const second = assessed('b', '4.14.1');
    const other = assessed('c', '4.15.0');
    expect(first.health.updateRecommendations).not.toBe(second.health.updateRecommendations);
    a.update(first, Date.parse(NOW), false);
    b.update(second, Date.parse(NOW), false);
    c.update(other, Date.parse(NOW), false);
    expect(a.health().updateRecommendations).not.toBeNull();
    expect(a.health().updateRecommendations).toBe(b.health().updateRecommendations);
    expect(b.health().updateRecommendations).toEqual(second.health.updateRecommendations);
    expect(c.health().updateRecommendations).not.toBe(a.health().updateRecommendations);
    expect(c.health().updateRecommendations).toEqual(other.health.updateRecommendations);
    expect(a.health().cluster.id).toBe('a');
    expect(b.health().cluster.id).toBe('b');
  });

  it('publishes again only when the health or its recommendations changed', () => {
    const published = new PublishedHealth('a', assessed('a', '4.14.1').health);
    const at = Date.parse(NOW);
    const kinds = (messages: { type: string }[]) => messages.map((message) => message.type);
    expect(kinds(published.update(assessed('a', '4.14.1'), at, false))).toEqual(['health']);
    expect(kinds(published.update(assessed('a', '4.14.1'), at, false))).toEqual([]);
    const first = assessed('a', '4.14.1');
    const changed = {
      ...first,
      health: {
        ...first.health,
        updateRecommendations: { ...first.health.updateRecommendations!, channel: 'candidate-4.15' },
      },
    };
    expect(kinds(published.update(changed, at, false))).toEqual(['health']);
  });

  it('publishes a changed health that keeps every unchanged part of the one before', () => {
    const published = new PublishedHealth('a', assessed('a', '4.14.1').health);
    const at = Date.parse(NOW);
    published.update(assessed('a', '4.14.1'), at, false);
    const before = published.health();
    const next = assessed('a', '4.14.1');
    const changed = { ...next, health: { ...next.health, cluster: { ...next.health.cluster, channel: 'fast-4.15' } } };
    expect(published.update(changed, at, false).map((message) => message.type)).toEqual(['health']);
    const after = published.health();
    expect(after).toEqual(changed.health);
    expect(after).not.toBe(before);
    expect(after.cluster).not.toBe(before.cluster);
    expect(before.findings.length).toBeGreaterThan(0);
    expect(after.findings).toBe(before.findings);
    expect(after.updateRecommendations).toBe(before.updateRecommendations);
  });

  it('keeps one frozen row until the health changes', () => {
    const published = new PublishedHealth('a', assessed('a', '4.14.1').health);
    const at = Date.parse(NOW);
    const row = published.summary();
    expect(Object.isFrozen(row)).toBe(true);
    expect(published.summary()).toBe(row);
    published.update(assessed('a', '4.15.0'), at, false);
    const changed = published.summary();
    expect(changed).not.toBe(row);
    expect(changed.version).not.toBe(row.version);
    published.update(assessed('a', '4.15.0'), at, false);
    expect(published.summary()).toBe(changed);
  });

  it('shares values by content', () => {
    const one = sharedValue({ versions: ['4.14.2'], note: 'x' });
    expect(sharedValue({ versions: ['4.14.2'], note: 'x' })).toBe(one);
    expect(sharedValue({ versions: ['4.14.3'], note: 'x' })).not.toBe(one);
  });
});
