import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import type { ConditionTransition } from '@/lib/health/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { hostedClusterId, splitSnapshot } from './hosted-views';

const obj = (kind: string, name: string, namespace?: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
  spec,
});
const transition = (kind: string, name: string, namespace?: string): ConditionTransition => ({
  ref: { kind, name, ...(namespace ? { namespace } : {}) },
  type: 'Available',
  status: 'False',
  at: '2024-06-01T12:00:00Z',
});

describe('splitSnapshot', () => {
  it('leaves a cluster without HyperShift objects whole', () => {
    const snapshot = makeSnapshot({ pods: [obj('Pod', 'p', 'openshift-dns')] });
    expect(splitSnapshot(snapshot)).toEqual({ own: snapshot, hosted: [] });
  });

  it('gives each HostedCluster its NodePools and control-plane namespace, and the rest to the management cluster', () => {
    const hc = obj('HostedCluster', 'a', 'clusters', { clusterID: 'uuid-a' });
    const snapshot = makeSnapshot(
      {
        hostedclusters: [hc],
        nodepools: [
          obj('NodePool', 'a-1', 'clusters', { clusterName: 'a' }),
          obj('NodePool', 'b-1', 'clusters', { clusterName: 'b' }),
        ],
        pods: [obj('Pod', 'cno', 'clusters-a'), obj('Pod', 'dns', 'openshift-dns'), obj('Pod', 'orphan', 'clusters-b')],
        configmaps: [obj('ConfigMap', 'feature-gate', 'clusters-a')],
        clusterversions: [obj('ClusterVersion', 'version')],
      },
      {
        transitions: [
          transition('HostedCluster', 'a', 'clusters'),
          transition('Pod', 'cno', 'clusters-a'),
          transition('ClusterOperator', 'dns'),
        ],
      },
    );
    const { own, hosted } = splitSnapshot(snapshot);
    expect(own.objects.hostedclusters).toBeUndefined();
    expect(own.objects.nodepools).toBeUndefined();
    expect(own.objects.pods?.map((p) => p.metadata.name)).toEqual(['dns']);
    expect(own.objects.configmaps).toEqual([]);
    expect(own.objects.clusterversions).toHaveLength(1);
    expect(own.transitions.map((t) => t.ref.name)).toEqual(['dns']);

    expect(hosted.map((part) => [part.key, part.hcpNamespace, part.clusterID])).toEqual([
      ['clusters/a', 'clusters-a', 'uuid-a'],
      ['clusters/b', 'clusters-b', undefined],
    ]);
    const [a, b] = hosted;
    expect(a.snapshot.objects.hostedclusters).toEqual([hc]);
    expect(a.snapshot.objects.nodepools?.map((p) => p.metadata.name)).toEqual(['a-1']);
    expect(a.snapshot.objects.pods?.map((p) => p.metadata.name)).toEqual(['cno']);
    expect(a.snapshot.objects.configmaps?.map((c) => c.metadata.name)).toEqual(['feature-gate']);
    expect(a.snapshot.objects.clusterversions).toBeUndefined();
    expect(a.snapshot.transitions.map((t) => t.ref.name)).toEqual(['a', 'cno']);
    // NodePools without their HostedCluster in the snapshot still form a part, with no HostedCluster invented.
    expect(b.snapshot.objects.hostedclusters).toEqual([]);
    expect(b.snapshot.objects.nodepools?.map((p) => p.metadata.name)).toEqual(['b-1']);
    expect(b.snapshot.objects.pods?.map((p) => p.metadata.name)).toEqual(['orphan']);
  });

  it('builds URL-safe hosted ids that split from the right', () => {
    expect(hostedClusterId('mgmt.example.com', 'clusters', 'a')).toBe('mgmt.example.com.clusters.a');
  });
});
