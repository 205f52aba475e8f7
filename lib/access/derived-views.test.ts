import { describe, expect, it } from 'vitest';
import type { ClusterHealthDto, HostedDetailsDto, UpdateProgressDto } from '@/lib/api/dto';
import type { UpdateRecommendationsDto } from '@/lib/api/recommend-dto';
import { describeAccess } from './access-check';
import { derivedViewAccess } from './derived-views';

const progress: UpdateProgressDto = {
  updating: true,
  controlPlane: {
    assessment: 'Progressing',
    targetVersion: '4.14.39',
    previousVersion: '4.14.38',
    completionPercent: 50,
    operators: { updated: 1, updating: 1, waiting: 0, total: 2 },
    health: { healthy: 2, unavailable: 0, degraded: 0 },
    durationSeconds: 60,
    estimatedRemainingSeconds: null,
  },
  workerPools: [],
  insights: [],
};
const recommendations: UpdateRecommendationsDto = {
  currentVersion: '4.14.38',
  channel: null,
  availableChannels: [],
  upstream: null,
  updates: [],
  prechecks: [],
  clusterConditions: [],
};
const hosted: HostedDetailsDto = {
  namespace: 'clusters',
  name: 'tenant-a',
  hcpNamespace: 'clusters-tenant-a',
  platform: null,
  conditions: [],
  components: [],
  pods: [],
  nodePools: [],
};
const health = (extra: Partial<ClusterHealthDto>): ClusterHealthDto => ({
  cluster: { id: 'c', name: 'c', version: null, desiredVersion: null, channel: null, history: [] },
  findings: [],
  updateProgress: progress,
  updateRecommendations: null,
  sources: [],
  ...extra,
});
const described = (views: ReturnType<typeof derivedViewAccess>, view: keyof typeof views) =>
  views[view]?.map(describeAccess);

describe('what each derived view reads', () => {
  it('a standalone cluster: progress from its own objects and alerts, recommendations, a rollback plan; no hosted view', () => {
    const views = derivedViewAccess(health({ updateRecommendations: recommendations }));
    expect(Object.keys(views)).toEqual(['updateProgress', 'updateRecommendations', 'rollbackPlan']);
    expect(described(views, 'updateProgress')).toEqual(
      expect.arrayContaining([
        'list nodes',
        'list clusteroperators.config.openshift.io',
        'list pods',
        'get deployments.apps "machine-config-operator" in namespace openshift-machine-config-operator',
      ]),
    );
    expect(described(views, 'updateRecommendations')).toEqual(
      expect.arrayContaining([
        'get clusterversions.config.openshift.io "version"',
        'get featuregates.config.openshift.io "cluster"',
        'list poddisruptionbudgets.policy in namespace openshift-catalogd',
      ]),
    );
  });

  it('a hosted cluster seen from its management cluster: its HostedCluster, control plane and NodePools only', () => {
    const views = derivedViewAccess(health({ hosted }));
    expect(Object.keys(views)).toEqual(['updateProgress', 'hosted']);
    expect(described(views, 'updateProgress')).toEqual([
      'get hostedclusters.hypershift.openshift.io "tenant-a" in namespace clusters',
      'list controlplanecomponents.hypershift.openshift.io in namespace clusters-tenant-a',
      'list nodepools.hypershift.openshift.io in namespace clusters',
    ]);
    expect(described(views, 'hosted')).toContain('list pods in namespace clusters-tenant-a');
  });

  it('a hosted cluster also watched through its own context: progress needs both sides, and it has a rollback plan', () => {
    const views = derivedViewAccess(health({ hosted, updateRecommendations: recommendations }));
    expect(described(views, 'updateProgress')).toEqual(
      expect.arrayContaining([
        'get hostedclusters.hypershift.openshift.io "tenant-a" in namespace clusters',
        'list nodes',
      ]),
    );
    expect(views.rollbackPlan).toBeDefined();
  });

  it('a view the health does not carry needs nothing', () => {
    expect(Object.keys(derivedViewAccess(health({ updateProgress: null })))).toEqual(['rollbackPlan']);
  });
});
