import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '@/lib/api/dto';
import {
  interestOf,
  isEmptyInterest,
  messageFor,
  sameInterest,
  streamQuery,
  unionInterest,
  type StreamInterest,
} from './stream-subscription';

const fleetTab = interestOf('all', 'summary');
const clusterTab = (id: string): StreamInterest => interestOf([id], 'detail');
const query = (interest: StreamInterest) => decodeURIComponent(streamQuery(interest).toString());

const summary = {
  id: 'a',
  name: 'a',
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity: 'ok' as const,
  findingCounts: { critical: 0, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone' as const,
};
const health = (clusterId: string): StreamMessage =>
  ({
    type: 'health',
    clusterId,
    summary: { ...summary, id: clusterId, name: clusterId },
    health: {
      cluster: {
        id: clusterId,
        name: clusterId,
        version: '4.16.3',
        desiredVersion: '4.16.3',
        channel: null,
        history: [],
      },
      findings: [],
      updateProgress: null,
      updateRecommendations: null,
      sources: [],
    },
  }) as unknown as StreamMessage;
const samples = (clusterId: string): StreamMessage => ({
  type: 'samples',
  clusterId,
  detector: 'catalog-replicas',
  points: [{ t: 5, values: { ready: 0 } }],
});

describe('the stream one browser shares between its tabs', () => {
  it('asks for what a single page asked before: the same query as its own stream', () => {
    expect(query(fleetTab)).toBe('view=summary');
    expect(query(interestOf(['b', 'a', 'b'], 'detail'))).toBe('clusters=a,b');
    expect(query(unionInterest([fleetTab, fleetTab]))).toBe('view=summary');
  });

  it('serves the fleet rows of every cluster and the documents of the clusters other tabs show, in one stream', () => {
    const union = unionInterest([fleetTab, clusterTab('b'), clusterTab('a'), clusterTab('b')]);
    expect(union).toEqual({ summary: 'all', detail: ['a', 'b'] });
    expect(query(union)).toBe('view=summary&detail=a,b');
    expect(query(unionInterest([clusterTab('b'), clusterTab('a')]))).toBe('clusters=a,b');
    expect(query(unionInterest([interestOf(['c'], 'summary'), clusterTab('a')]))).toBe(
      'clusters=a,c&view=summary&detail=a',
    );
    expect(query(unionInterest([interestOf('all', 'detail'), fleetTab]))).toBe('');
  });

  it('gives each tab only what it asked for, a row where another tab asked for the whole document', () => {
    const row = messageFor(fleetTab, health('a'));
    expect(row).toEqual({ type: 'summary', clusterId: 'a', summary: { ...summary } });
    expect(messageFor(fleetTab, samples('a'))).toBeUndefined();
    const patch: StreamMessage = { type: 'summary-patch', clusterId: 'a', set: { worstSeverity: 'warning' } };
    expect(messageFor(fleetTab, patch)).toBe(patch);
    expect(messageFor(interestOf(['b'], 'summary'), patch)).toBeUndefined();
    expect(messageFor(clusterTab('a'), health('a'))?.type).toBe('health');
    expect(messageFor(clusterTab('a'), samples('a'))?.type).toBe('samples');
    expect(messageFor(clusterTab('a'), health('b'))).toBeUndefined();
    expect(messageFor(clusterTab('a'), samples('b'))).toBeUndefined();
  });

  it('knows when nothing is wanted and when the union did not change', () => {
    expect(isEmptyInterest(unionInterest([]))).toBe(true);
    expect(isEmptyInterest(interestOf([], 'detail'))).toBe(true);
    expect(isEmptyInterest(fleetTab)).toBe(false);
    expect(sameInterest(unionInterest([clusterTab('a'), fleetTab]), unionInterest([fleetTab, clusterTab('a')]))).toBe(
      true,
    );
    expect(sameInterest(unionInterest([clusterTab('a')]), unionInterest([clusterTab('a'), clusterTab('b')]))).toBe(
      false,
    );
  });
});
