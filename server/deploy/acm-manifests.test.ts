/**
 * deploy/acm as `oc apply -k` sends it: deploy/openshift plus the hub's objects. Everything a managed cluster grants
 * the dashboard is read-only and derived from deploy/openshift; the hub grants only what discovery needs.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import { authorize, type UserInfo } from '@/server/simulator/access/rbac';
import { createSimulatedCluster } from '@/server/simulator/core';
import { AGENT_ADDON_NAMESPACE, LABEL_SYNC_TO_CLUSTER_PROFILE, MANAGED_SERVICE_ACCOUNT } from '@/lib/acm/ocm-names';
import { ACM_PLACEMENT, READ_VERBS, managedClusterRbac } from './acm-managed-rbac';
import {
  accountGrants,
  dashboardAccount,
  isResourceGrant,
  renderAcmManifests,
  renderOpenShiftManifests,
  type Manifest,
} from './rendered-manifests';

const acm = renderAcmManifests();
const openshift = renderOpenShiftManifests();
const account = dashboardAccount(openshift);
const work = acm.find((m) => m.kind === 'ManifestWorkReplicaSet') as Manifest & {
  spec: { placementRefs: { name: string }[]; manifestWorkTemplate: { workload: { manifests: Manifest[] } } };
};
const distributed = work.spec.manifestWorkTemplate.workload.manifests;
const key = (m: Manifest) => `${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`;

describe('deploy/acm', () => {
  it('distributes the read rules of deploy/openshift, unchanged but for the verbs (npm run generate:acm-rbac)', () => {
    expect(distributed).toEqual(managedClusterRbac(openshift, account));
    expect(new Set(distributed.map(key)).size).toBe(distributed.length);
    const readers = distributed.filter((m) => m.kind === 'ClusterRole');
    expect(readers.map((m) => m.metadata.name)).toEqual(['update-health-managed-reader']);
  });

  it('grants the managed service account on a managed cluster get, list and watch only (and reviews), no Secret', () => {
    const grants = accountGrants(distributed, AGENT_ADDON_NAMESPACE, MANAGED_SERVICE_ACCOUNT);
    expect(grants.length).toBeGreaterThan(10);
    for (const grant of grants) {
      expect(
        grant.verbs.filter(
          (verb) =>
            !READ_VERBS.includes(verb) &&
            !(verb === 'create' && isResourceGrant(grant) && grant.resource === 'subjectaccessreviews'),
        ),
        JSON.stringify(grant),
      ).toEqual([]);
    }
    expect(grants.filter(isResourceGrant).some((g) => g.resource === 'secrets')).toBe(false);
    const subjects = distributed.flatMap((m) => (m as Manifest & { subjects?: object[] }).subjects ?? []);
    expect(new Set(subjects.map((s) => JSON.stringify(s)))).toEqual(
      new Set([
        JSON.stringify({ kind: 'ServiceAccount', name: MANAGED_SERVICE_ACCOUNT, namespace: AGENT_ADDON_NAMESPACE }),
      ]),
    );
  });

  it("holds on a cluster's RBAC authorizer: the account reads ClusterVersions, asks reviews, cannot write or read Secrets", () => {
    const cluster = createSimulatedCluster();
    const client = cluster.as('work-agent');
    const plural: Record<string, ResourceName> = {
      ClusterRole: 'clusterroles',
      ClusterRoleBinding: 'clusterrolebindings',
      Role: 'roles',
      RoleBinding: 'rolebindings',
    };
    for (const manifest of distributed) client.create(plural[manifest.kind], structuredClone(manifest) as KubeObject);
    const user: UserInfo = {
      name: `system:serviceaccount:${AGENT_ADDON_NAMESPACE}:${MANAGED_SERVICE_ACCOUNT}`,
      groups: ['system:serviceaccounts', 'system:authenticated'],
    };
    const may = (verb: string, group: string, resource: string, namespace?: string) =>
      authorize(cluster.store, user, { resource: { verb, group, resource, namespace } }).allowed;
    expect(may('watch', 'config.openshift.io', 'clusterversions')).toBe(true);
    expect(may('list', '', 'pods')).toBe(true);
    expect(may('update', 'config.openshift.io', 'clusterversions')).toBe(false);
    // Reviews ask the authorizer and store nothing: per-user visibility sends them through cluster-proxy.
    expect(may('create', 'authorization.k8s.io', 'subjectaccessreviews')).toBe(true);
    expect(may('create', 'authentication.k8s.io', 'tokenreviews')).toBe(false);
    expect(may('get', '', 'secrets', 'openshift-config')).toBe(false);
  });

  it('places the RBAC on the set bound into its namespace, with a synced ManagedServiceAccount per member', () => {
    expect(work.metadata.namespace).toBe(account.namespace);
    expect(work.spec.placementRefs).toEqual([{ name: ACM_PLACEMENT }]);
    const placement = acm.find((m) => m.kind === 'Placement' && m.metadata.name === ACM_PLACEMENT) as Manifest & {
      spec: { clusterSets: string[] };
    };
    expect(placement.metadata.namespace).toBe(account.namespace);
    const binding = acm.find((m) => m.kind === 'ManagedClusterSetBinding') as Manifest & {
      spec: { clusterSet: string };
    };
    expect(binding.metadata).toMatchObject({ namespace: account.namespace, name: binding.spec.clusterSet });
    expect(placement.spec.clusterSets).toEqual([binding.spec.clusterSet]);
    const policy = acm.find((m) => m.kind === 'Policy') as Manifest & {
      spec: { 'policy-templates': { objectDefinition: { spec: { 'object-templates-raw': string } } }[] };
    };
    const template = policy.spec['policy-templates'][0].objectDefinition.spec['object-templates-raw'];
    expect(template).toContain(`cluster.open-cluster-management.io/clusterset=${binding.spec.clusterSet}`);
    expect(template).toContain('kind: ManagedServiceAccount');
    expect(template).toContain(`name: ${MANAGED_SERVICE_ACCOUNT}`);
    expect(template).toContain(`${LABEL_SYNC_TO_CLUSTER_PROFILE}: "true"`);
    // The policy creates ManagedServiceAccounts and nothing else.
    expect([...template.matchAll(/kind: (\S+)/g)].map((match) => match[1])).toEqual(['ManagedServiceAccount']);
  });

  it('adds on the hub only reads of ManagedClusters, and of ClusterProfiles and Secrets in its own namespace', () => {
    const before = new Set(accountGrants(openshift, account.namespace, account.name).map((g) => JSON.stringify(g)));
    const added = accountGrants(acm, account.namespace, account.name).filter((g) => !before.has(JSON.stringify(g)));
    expect(added).toEqual(
      expect.arrayContaining([
        { group: 'cluster.open-cluster-management.io', resource: 'managedclusters', verbs: ['get', 'list', 'watch'] },
        {
          group: 'multicluster.x-k8s.io',
          resource: 'clusterprofiles',
          verbs: ['get', 'list', 'watch'],
          namespace: account.namespace,
        },
        { group: '', resource: 'secrets', verbs: ['get', 'list', 'watch'], namespace: account.namespace },
      ]),
    );
    expect(added).toHaveLength(3);
  });

  it('points the dashboard at the hub instead of a single cluster', () => {
    const deployment = acm.find((m) => m.kind === 'Deployment') as Manifest & {
      spec: { template: { spec: { containers: { name: string; env: { name: string; value?: string }[] }[] } } };
    };
    const env = deployment.spec.template.spec.containers[0].env;
    const names = env.map((entry) => entry.name);
    expect(names).not.toContain('UPDATE_HEALTH_KUBECONFIG');
    expect(env.find((entry) => entry.name === 'UPDATE_HEALTH_HUB_KUBECONFIG')?.value).toBe(
      '/etc/update-health/kubeconfig.yaml:local-cluster',
    );
    expect(names).toContain('POD_NAMESPACE');
    expect(new Set(acm.map(key)).size).toBe(acm.length);
  });
});
