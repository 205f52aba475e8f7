import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import type { SimClient } from './types';

/** Kinds whose real CRDs ship in server/fixtures. */
export type CrdKind =
  | 'ClusterVersion'
  | 'FeatureGate'
  | 'ClusterOperator'
  | 'ClusterExtension'
  | 'ClusterCatalog'
  | HyperShiftCrdKind
  | AcmCrdKind;

/** HyperShift kinds a management cluster serves (real CRDs from openshift/hypershift). */
export type HyperShiftCrdKind = 'HostedCluster' | 'NodePool' | 'HostedControlPlane' | 'ControlPlaneComponent';

const HYPERSHIFT_CRD_FILES: Record<HyperShiftCrdKind, string> = {
  HostedCluster: 'hostedclusters-Hypershift-Default.crd.yaml',
  NodePool: 'nodepools-Default.crd.yaml',
  HostedControlPlane: 'hostedcontrolplanes-Hypershift-Default.crd.yaml',
  ControlPlaneComponent: 'controlplanecomponents.crd.yaml',
};

/** Kinds an ACM / Open Cluster Management hub serves (real CRDs from open-cluster-management-io and SIG-Multicluster). */
export type AcmCrdKind =
  | 'ManagedCluster'
  | 'ManagedClusterSet'
  | 'ManagedClusterSetBinding'
  | 'ClusterProfile'
  | 'ManagedServiceAccount'
  | 'ManagedClusterAddOn'
  | 'ManagedProxyConfiguration'
  | 'ManagedClusterInfo';

const ACM_CRD_FILES: Record<AcmCrdKind, string> = {
  ManagedCluster: 'managedclusters.crd.yaml',
  ManagedClusterSet: 'managedclustersets.crd.yaml',
  ManagedClusterSetBinding: 'managedclustersetbindings.crd.yaml',
  ClusterProfile: 'clusterprofiles.crd.yaml',
  ManagedServiceAccount: 'managedserviceaccounts.crd.yaml',
  ManagedClusterAddOn: 'managedclusteraddons.crd.yaml',
  ManagedProxyConfiguration: 'managedproxyconfigurations.crd.yaml',
  ManagedClusterInfo: 'managedclusterinfos.crd.yaml',
};

/** ClusterVersion CRD releases available in the fixtures. */
export const CLUSTER_VERSION_CRD_RELEASES = [
  '4.11',
  '4.12',
  '4.13',
  '4.14',
  '4.15',
  '4.16',
  '4.17',
  '4.18',
  '4.19',
  '4.20',
  '4.21',
  'master',
] as const;

/** Thrown when a CRD fixture does not exist for the requested kind and release. */
export class UnknownCrdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownCrdError';
  }
}

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

function fixturePath(kind: CrdKind, release: string | undefined): string {
  switch (kind) {
    case 'ClusterVersion': {
      const chosen = release ?? 'master';
      if (!(CLUSTER_VERSION_CRD_RELEASES as readonly string[]).includes(chosen)) {
        throw new UnknownCrdError(
          `no ClusterVersion CRD for release "${chosen}" (known: ${CLUSTER_VERSION_CRD_RELEASES.join(', ')})`,
        );
      }
      return `${FIXTURES}openshift-api/crds/clusterversion/${chosen}.yaml`;
    }
    case 'FeatureGate':
    case 'ClusterOperator': {
      const chosen = release === '4.14' ? '4.14' : 'master';
      if (release && release !== '4.14' && release !== 'master' && !/^4\.(1[5-9]|2\d)$/.test(release)) {
        throw new UnknownCrdError(`no ${kind} CRD for release "${release}" (known: 4.14, master)`);
      }
      return `${FIXTURES}openshift-api/crds/${kind.toLowerCase()}/${chosen}.yaml`;
    }
    case 'ClusterExtension':
      return `${FIXTURES}olmv1/crds/upstream-main/olm.operatorframework.io_clusterextensions.standard.yaml`;
    case 'ClusterCatalog':
      return `${FIXTURES}olmv1/crds/upstream-main/olm.operatorframework.io_clustercatalogs.standard.yaml`;
    default:
      if (kind in ACM_CRD_FILES) return `${FIXTURES}acm/crds/${ACM_CRD_FILES[kind as AcmCrdKind]}`;
      return `${FIXTURES}hypershift/crds/${HYPERSHIFT_CRD_FILES[kind as HyperShiftCrdKind]}`;
  }
}

const cache = new Map<string, string>();

/**
 * Loads a real CustomResourceDefinition from the fixtures. ClusterVersion takes a release '4.11'..'4.21' or
 * 'master' (default); FeatureGate and ClusterOperator have '4.14' and 'master' (newer releases map to master);
 * the OLMv1 kinds come from upstream main. Returns a fresh copy each call.
 */
export function loadCrd(kind: CrdKind, release?: string): KubeObject {
  const path = fixturePath(kind, release);
  let text = cache.get(path);
  if (text === undefined) {
    const parsed = load(readFileSync(path, 'utf8'));
    text = JSON.stringify(parsed);
    cache.set(path, text);
  }
  const crd = JSON.parse(text) as KubeObject;
  const metadata = crd.metadata as KubeObject['metadata'] & { creationTimestamp?: unknown };
  delete metadata.creationTimestamp;
  delete (crd as { status?: unknown }).status;
  return crd;
}

/**
 * Creates or replaces a CRD through the client (so watches see it and validation switches at once).
 * Returns the stored object.
 */
export function installCrd(client: SimClient, crd: KubeObject): KubeObject {
  const existing = client.get('customresourcedefinitions', crd.metadata.name);
  if (!existing) return client.create('customresourcedefinitions', crd);
  return client.update('customresourcedefinitions', {
    ...crd,
    metadata: { ...existing.metadata, ...crd.metadata, resourceVersion: existing.metadata.resourceVersion },
  });
}

/** Installs the ClusterVersion (given release), FeatureGate, ClusterOperator and OLMv1 CRDs. */
export function installBaseCrds(client: SimClient, options: { clusterVersionRelease: string; olmV1?: boolean }): void {
  const release = options.clusterVersionRelease;
  const minor = /^4\.(\d+)/.exec(release);
  const openshiftRelease = minor && Number(minor[1]) <= 14 ? '4.14' : 'master';
  installCrd(client, loadCrd('ClusterVersion', release));
  installCrd(client, loadCrd('FeatureGate', openshiftRelease));
  installCrd(client, loadCrd('ClusterOperator', openshiftRelease));
  if (options.olmV1 ?? true) {
    installCrd(client, loadCrd('ClusterExtension'));
    installCrd(client, loadCrd('ClusterCatalog'));
  }
}

/** Installs the HyperShift CRDs a management cluster serves: HostedCluster, NodePool, HostedControlPlane, ControlPlaneComponent. */
export function installHyperShiftCrds(client: SimClient): void {
  for (const kind of Object.keys(HYPERSHIFT_CRD_FILES) as HyperShiftCrdKind[]) installCrd(client, loadCrd(kind));
}

/** Installs the CRDs of an ACM / OCM hub: cluster inventory, cluster sets, ClusterProfile, add-ons, managed service accounts. */
export function installAcmCrds(client: SimClient): void {
  for (const kind of Object.keys(ACM_CRD_FILES) as AcmCrdKind[]) installCrd(client, loadCrd(kind));
}
