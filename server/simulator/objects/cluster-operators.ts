import type { Condition, KubeObject } from '@/lib/k8s/types';
import { runsOlmV1 } from './olm';
import { kubeletVersion } from './releases';

/**
 * ClusterOperators of a self-managed HA cluster, in the order the CVO reaches them during an update (run levels of
 * the release payload: etcd and kube-apiserver first, machine-config late).
 */
const STANDALONE_OPERATORS = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'config-operator',
  'kube-storage-version-migrator',
  'cloud-credential',
  'cloud-controller-manager',
  'openshift-apiserver',
  'authentication',
  'machine-api',
  'control-plane-machine-set',
  'cluster-autoscaler',
  'machine-approver',
  'baremetal',
  'openshift-controller-manager',
  'service-ca',
  'network',
  'dns',
  'image-registry',
  'ingress',
  'storage',
  'csi-snapshot-controller',
  'node-tuning',
  'operator-lifecycle-manager',
  'operator-lifecycle-manager-catalog',
  'operator-lifecycle-manager-packageserver',
  'marketplace',
  'openshift-samples',
  'console',
  'insights',
  'monitoring',
  'machine-config',
];

/** ClusterOperators a HyperShift hosted cluster reports (control-plane ones run in the management cluster). */
const HOSTED_OPERATORS = [
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'openshift-apiserver',
  'openshift-controller-manager',
  'authentication',
  'service-ca',
  'network',
  'dns',
  'image-registry',
  'ingress',
  'storage',
  'csi-snapshot-controller',
  'node-tuning',
  'operator-lifecycle-manager',
  'operator-lifecycle-manager-catalog',
  'operator-lifecycle-manager-packageserver',
  'marketplace',
  'openshift-samples',
  'console',
  'insights',
  'monitoring',
  'kube-storage-version-migrator',
];

/**
 * Names of the ClusterOperators of a cluster at `version`; the `olm` operator (cluster-olm-operator) exists where
 * OLMv1 runs (from 4.18 on, or with TechPreviewNoUpgrade on 4.14–4.17).
 */
export function clusterOperatorNames(version: string, hosted = false, featureSet = ''): string[] {
  const names = hosted ? [...HOSTED_OPERATORS] : [...STANDALONE_OPERATORS];
  if (runsOlmV1(version, featureSet)) {
    names.splice(names.indexOf('operator-lifecycle-manager-packageserver') + 1, 0, 'olm');
  }
  return names;
}

/** Operand versions an operator reports besides `operator` (mirrors real status.versions entries). */
export function operatorVersions(name: string, version: string): { name: string; version: string }[] {
  const kube = kubeletVersion(version).replace(/^v/, '').replace(/\+.*$/, '');
  const extra: Record<string, { name: string; version: string }[]> = {
    'kube-apiserver': [
      { name: 'raw-internal', version },
      { name: 'kube-apiserver', version: kube },
    ],
    'kube-controller-manager': [
      { name: 'raw-internal', version },
      { name: 'kube-controller-manager', version: kube },
    ],
    'kube-scheduler': [
      { name: 'raw-internal', version },
      { name: 'kube-scheduler', version: kube },
    ],
    etcd: [
      { name: 'raw-internal', version },
      { name: 'etcd', version },
    ],
    'config-operator': [{ name: 'feature-gates', version }],
    authentication: [
      { name: 'oauth-apiserver', version },
      { name: 'oauth-openshift', version: `${version}_openshift` },
    ],
    'openshift-apiserver': [{ name: 'openshift-apiserver', version }],
    'csi-snapshot-controller': [{ name: 'csi-snapshot-controller', version }],
    'node-tuning': [{ name: 'openshift-tuned', version }],
  };
  return [{ name: 'operator', version }, ...(extra[name] ?? [])];
}

/** The healthy condition set of an operator. */
export function healthyOperatorConditions(lastTransitionTime: string): Condition[] {
  return [
    { type: 'Degraded', status: 'False', reason: 'AsExpected', message: 'All is well', lastTransitionTime },
    { type: 'Progressing', status: 'False', reason: 'AsExpected', message: 'All is well', lastTransitionTime },
    { type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well', lastTransitionTime },
    { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well', lastTransitionTime },
  ];
}

/** A ClusterOperator object (status written separately through /status). */
export function buildClusterOperator(name: string, clusterVersionUid?: string): KubeObject {
  const metadata: KubeObject['metadata'] = {
    name,
    annotations: {
      'include.release.openshift.io/self-managed-high-availability': 'true',
      'include.release.openshift.io/single-node-developer': 'true',
    },
  };
  if (clusterVersionUid) {
    metadata.ownerReferences = [
      {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ClusterVersion',
        name: 'version',
        uid: clusterVersionUid,
        controller: true,
      },
    ];
  }
  return { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', metadata, spec: {} };
}

/** The field manager an operator's status writes are attributed to (its operator deployment's name). */
export function operatorManager(name: string): string {
  const special: Record<string, string> = {
    'config-operator': 'cluster-config-operator',
    olm: 'cluster-olm-operator',
    network: 'cluster-network-operator',
    'machine-config': 'machine-config-operator',
    monitoring: 'cluster-monitoring-operator',
    ingress: 'ingress-operator',
    dns: 'dns-operator',
    authentication: 'authentication-operator',
  };
  return special[name] ?? `${name}-operator`;
}
