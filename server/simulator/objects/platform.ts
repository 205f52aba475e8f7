import type { KubeObject } from '@/lib/k8s/types';

/** Control-plane topology of a cluster: standalone HA or HyperShift hosted (control plane elsewhere). */
export type ControlPlaneTopology = 'HighlyAvailable' | 'External';

/** The Infrastructure `cluster` of an AWS cluster. */
export function buildInfrastructure(infrastructureName: string, topology: ControlPlaneTopology): KubeObject {
  const domain = `${infrastructureName.replace(/-[a-z0-9]+$/, '')}.devcluster.example.com`;
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    spec: { cloudConfig: { name: '' }, platformSpec: { type: 'AWS', aws: {} } },
    status: {
      apiServerInternalURI: `https://api-int.${domain}:6443`,
      apiServerURL: `https://api.${domain}:6443`,
      controlPlaneTopology: topology,
      cpuPartitioning: 'None',
      etcdDiscoveryDomain: '',
      infrastructureName,
      infrastructureTopology: 'HighlyAvailable',
      platform: 'AWS',
      platformStatus: { type: 'AWS', aws: { region: 'us-east-2' } },
    },
  };
}

/** A Namespace with the labels OpenShift puts on platform namespaces. */
export function buildNamespace(name: string): KubeObject {
  const platform = name.startsWith('openshift') || name.startsWith('kube-');
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: {
        'kubernetes.io/metadata.name': name,
        ...(platform
          ? { 'openshift.io/cluster-monitoring': 'true', 'pod-security.kubernetes.io/enforce': 'privileged' }
          : {}),
      },
      annotations: { 'openshift.io/sa.scc.uid-range': '1000650000/10000' },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}
