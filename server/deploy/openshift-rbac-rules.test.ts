/**
 * The RBAC of deploy/openshift as rendered: cluster-wide only what cannot be named by namespace or name (cluster-scoped
 * kinds, pods in every namespace, the feature-gate ConfigMaps by name), everything else in Roles of the namespaces the
 * detectors, log poller and proxies read; the two reviews the login needs; no write and no Secret.
 */
import { describe, expect, it } from 'vitest';
import { DETECTORS, requiredLogs, requiredResources } from '@/lib/health/registry';
import { RESOURCES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { THANOS_ALERTS_PATH } from '@/server/metrics/alerts-poller';
import { OVNKUBE_NAMESPACE } from '@/server/metrics/scrape-source';
import { UPSTREAM_ONLY_NAMESPACES } from '@/lib/health/source-applicability';
import {
  accountGrants,
  isResourceGrant,
  renderOpenShiftManifests,
  type Manifest,
  type ResourceGrant,
} from './rendered-manifests';

const rendered = renderOpenShiftManifests();
const deployment = rendered.find((m) => m.kind === 'Deployment') as Manifest & {
  spec: { template: { spec: { serviceAccountName: string } } };
};
const account = deployment.spec.template.spec.serviceAccountName;
const everything = accountGrants(rendered, deployment.metadata.namespace!, account);
const grants = everything.filter(isResourceGrant);
const READ = ['get', 'list', 'watch'];
const REVIEWS = ['authentication.k8s.io/tokenreviews', 'authorization.k8s.io/subjectaccessreviews'];
const CLIENT_CA_GRANT: ResourceGrant = {
  group: '',
  resource: 'configmaps',
  verbs: ['get'],
  namespace: 'kube-system',
  names: ['extension-apiserver-authentication'],
};

const key = (g: Pick<ResourceGrant, 'group' | 'resource'>) => `${g.group}/${g.resource}`;
const groupOf = (resource: ResourceName) => (RESOURCES[resource] as ResourceInfo).group;
/** The grants that let the account do `verb` on group/resource in `namespace` (undefined: all) on `name`. */
function covering(group: string, resource: string, verb: string, namespace?: string, name?: string): ResourceGrant[] {
  return grants.filter(
    (g) =>
      g.group === group &&
      g.resource === resource &&
      g.verbs.includes(verb) &&
      (g.namespace === undefined || g.namespace === namespace) &&
      (g.names === undefined || (name !== undefined && g.names.includes(name))),
  );
}

describe('deploy/openshift RBAC', () => {
  it('grants every read the detectors declare, and each in the narrowest form their needs allow', () => {
    const needs = requiredResources(DETECTORS).filter((need) => !UPSTREAM_ONLY_NAMESPACES.has(need.namespace ?? ''));
    for (const need of needs) {
      for (const verb of READ) {
        const found = covering(groupOf(need.resource), need.resource, verb, need.namespace, need.name);
        expect(found, `${verb} ${JSON.stringify(need)}`).not.toHaveLength(0);
      }
    }
    for (const grant of grants.filter((g) => !g.resource.includes('/') && g.verbs.join() === READ.join())) {
      const wanted = needs.filter((need) => need.resource === grant.resource && groupOf(need.resource) === grant.group);
      expect(wanted, `${key(grant)} is read by a detector`).not.toHaveLength(0);
      // Cluster-wide only where a need has no namespace (a cluster-scoped kind, or every namespace).
      const served = wanted.filter((need) => need.namespace === grant.namespace);
      expect(served, `${key(grant)} in ${grant.namespace ?? 'every namespace'}`).not.toHaveLength(0);
      // By name wherever every need it serves names its object; unnamed only where a need wants them all.
      if (served.some((need) => need.name === undefined)) expect(grant.names, `${key(grant)} all`).toBeUndefined();
      else expect(grant.names, `${key(grant)} by name`).toEqual([...new Set(served.map((need) => need.name!))].sort());
    }
  });

  it('reads logs and proxies only in the namespaces they are polled in, and ConfigMaps only by name', () => {
    const clusterWide = grants.filter((g) => g.namespace === undefined).map(key);
    for (const narrow of ['/pods/log', '/pods/proxy', '/services/proxy']) expect(clusterWide).not.toContain(narrow);
    // The feature gates (detectors), and the API server's client CA the metrics listener verifies Prometheus with.
    expect(grants.filter((g) => g.resource === 'configmaps')).toEqual(
      expect.arrayContaining([
        { group: '', resource: 'configmaps', verbs: READ, names: ['feature-gate'] },
        CLIENT_CA_GRANT,
      ]),
    );
    expect(grants.filter((g) => g.resource === 'configmaps')).toHaveLength(2);
    const logNamespaces = [...new Set(requiredLogs(DETECTORS).map((log) => log.namespace))].sort();
    for (const namespace of logNamespaces) {
      expect(covering('', 'pods/log', 'get', namespace, 'any-pod'), namespace).not.toHaveLength(0);
      expect(covering('', 'pods', 'list', namespace), namespace).not.toHaveLength(0);
    }
    expect(
      grants
        .filter((g) => g.resource === 'pods/log')
        .map((g) => g.namespace)
        .sort(),
    ).toEqual(logNamespaces);
    expect(grants.filter((g) => g.resource === 'pods/proxy').map((g) => g.namespace)).toEqual([OVNKUBE_NAMESPACE]);
    const [, thanosNamespace, thanosTarget] = /^\/api\/v1\/namespaces\/([^/]+)\/services\/([^/]+)\/proxy\//.exec(
      THANOS_ALERTS_PATH,
    )!;
    expect(grants.filter((g) => g.resource === 'services/proxy')).toEqual([
      { group: '', resource: 'services/proxy', verbs: ['get'], namespace: thanosNamespace, names: [thanosTarget] },
    ]);
    // MachineConfigs stay cluster-wide: a node's version is the annotation of the rendered MachineConfig its
    // currentConfig names (possibly older than either config its pool names), and rendered names end in a content hash (the
    // test above fails the day no detector needs every MachineConfig; clusterrole.yaml says why).
    expect(covering('machineconfiguration.openshift.io', 'machineconfigs', 'list')).toHaveLength(1);
  });

  it('writes nothing but the two reviews and reads no Secrets', () => {
    expect(
      everything.filter((g) => !isResourceGrant(g)),
      'no non-resource URL',
    ).toEqual([]);
    for (const grant of grants) {
      expect(grant.resource, 'no Secrets').not.toBe('secrets');
      expect(grant.resource).not.toBe('*');
      const review = REVIEWS.includes(key(grant));
      const byGet = grant.resource.includes('/') || JSON.stringify(grant) === JSON.stringify(CLIENT_CA_GRANT);
      expect(grant.verbs, key(grant)).toEqual(review ? ['create'] : byGet ? ['get'] : READ);
      if (review) expect(grant.namespace).toBeUndefined();
    }
    expect(
      grants
        .filter((g) => g.verbs.includes('create'))
        .map(key)
        .sort(),
    ).toEqual(REVIEWS);
  });
});
