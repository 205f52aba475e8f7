/**
 * The OpenShift manifests as `oc apply -k deploy/openshift` would send them (rendered by the machine's kubectl):
 * least privilege (cluster-wide only what cannot be named by namespace or name, everything else in Roles of the
 * namespaces the detectors read), no long-lived token of the dashboard's account, an OAuthClient for login, TLS from
 * the router to the pod and from Prometheus to the pod, and images pinned by digest; the pods run restricted-v2 with
 * probes on /readyz and /healthz and a memory limit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DETECTORS, requiredLogs, requiredResources } from '@/lib/health/registry';
import { RESOURCES, type ResourceInfo } from '@/lib/k8s/resources';
import { THANOS_ALERTS_PATH } from '@/server/metrics/alerts-poller';
import { OVNKUBE_NAMESPACE } from '@/server/metrics/scrape-source';
import { accountGrants, isResourceGrant, renderOpenShiftManifests, type Manifest, type ResourceGrant } from './rendered-rbac';

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: { httpGet?: { path: string; port: string; scheme?: string } };
  livenessProbe?: { httpGet?: { path: string; port: string; scheme?: string } };
  resources?: { limits?: { memory?: string } };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  serviceAccountName: string;
  securityContext: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string; items?: { key: string }[] }; projected?: unknown }[];
}
interface Deployment extends Manifest { spec: { replicas: number; template: { spec: PodSpec } } }

const rendered = renderOpenShiftManifests();
const all = (kind: string) => rendered.filter((m) => m.kind === kind);
const one = <T extends Manifest = Manifest>(kind: string, name?: string): T => {
  const found = all(kind).filter((m) => name === undefined || m.metadata.name === name);
  expect(found, `${kind} ${name ?? ''}`).toHaveLength(1);
  return found[0] as T;
};
const deployment = one<Deployment>('Deployment');
const pod = deployment.spec.template.spec;
const dashboard = pod.containers.find((c) => c.name === 'dashboard')!;
const envOf = (c: Container) => Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
const APP_NAMESPACE = deployment.metadata.namespace!;
const everything = accountGrants(rendered, APP_NAMESPACE, pod.serviceAccountName);
const grants = everything.filter(isResourceGrant);
const READ = ['get', 'list', 'watch'];
/**
 * Upstream OLMv1's namespace: the detectors also look there for non-OpenShift clusters, but it never exists on
 * OpenShift, and a RoleBinding cannot be created in a namespace that does not exist.
 */
const UPSTREAM_ONLY_NAMESPACES = new Set(['olmv1-system']);

const key = (g: Pick<ResourceGrant, 'group' | 'resource'>) => `${g.group}/${g.resource}`;
const groupOf = (resource: keyof typeof RESOURCES) => (RESOURCES[resource] as ResourceInfo).group;
/** The grants that let the account do `verb` on group/resource in namespace (undefined: cluster-wide) on name. */
const covering = (group: string, resource: string, verb: string, namespace: string | undefined, name: string | undefined) =>
  grants.filter((g) => g.group === group && g.resource === resource && g.verbs.includes(verb)
    && (g.namespace === undefined || g.namespace === namespace)
    && (g.names === undefined || (name !== undefined && g.names.includes(name))));

describe('deploy/openshift', () => {
  it('renders every object an admin needs, with every namespaced object in a namespace', () => {
    expect([...new Set(rendered.map((m) => m.kind))].sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Deployment', 'ImageStream',
      'Namespace', 'NetworkPolicy', 'Role', 'RoleBinding', 'Route', 'Secret', 'Service', 'ServiceAccount', 'ServiceMonitor']);
    const clusterScoped = new Set(['ClusterRole', 'ClusterRoleBinding', 'Namespace']);
    for (const m of rendered) expect(m.metadata.namespace === undefined, `${m.kind} ${m.metadata.name}`).toBe(clusterScoped.has(m.kind));
    expect(one('Namespace').metadata.name).toBe(APP_NAMESPACE);
  });

  it('grants every read the detectors declare, and each in the narrowest form their needs allow', () => {
    const needs = requiredResources(DETECTORS).filter((need) => !UPSTREAM_ONLY_NAMESPACES.has(need.namespace ?? ''));
    for (const need of needs) {
      for (const verb of READ) {
        expect(covering(groupOf(need.resource), need.resource, verb, need.namespace, need.name), `${verb} ${JSON.stringify(need)}`)
          .not.toHaveLength(0);
      }
    }
    const reads = grants.filter((g) => !g.resource.includes('/') && g.verbs.join() === READ.join());
    for (const grant of reads) {
      const wanted = needs.filter((need) => need.resource === grant.resource && groupOf(need.resource) === grant.group);
      expect(wanted, `${key(grant)} is read by a detector`).not.toHaveLength(0);
      if (grant.namespace === undefined) {
        // Cluster-wide only where some need has no namespace (a cluster-scoped kind, or every namespace).
        expect(wanted.some((need) => need.namespace === undefined), `${key(grant)} cluster-wide`).toBe(true);
      } else {
        expect(wanted.some((need) => need.namespace === grant.namespace), `${key(grant)} in ${grant.namespace}`).toBe(true);
      }
      // Names only where every need it serves names one; no name where a need wants them all.
      const served = wanted.filter((need) => grant.namespace === undefined ? need.namespace === undefined : need.namespace === grant.namespace);
      const unnamed = served.some((need) => need.name === undefined);
      if (unnamed) expect(grant.names, `${key(grant)} needs every object`).toBeUndefined();
      else expect(grant.names, `${key(grant)} by name`).toEqual([...new Set(served.map((need) => need.name!))].sort());
    }
  });

  it('reads logs and proxies only in the namespaces they are polled in, and configmaps only by name', () => {
    const clusterWide = grants.filter((g) => g.namespace === undefined).map(key);
    for (const forbidden of ['/pods/log', '/pods/proxy', '/services/proxy']) expect(clusterWide).not.toContain(forbidden);
    expect(grants.filter((g) => g.resource === 'configmaps').map((g) => g.names)).toEqual([['feature-gate']]);
    for (const log of requiredLogs(DETECTORS)) {
      expect(covering('', 'pods/log', 'get', log.namespace, 'any-pod'), log.namespace).not.toHaveLength(0);
      expect(covering('', 'pods', 'list', log.namespace, undefined), log.namespace).not.toHaveLength(0);
    }
    expect(grants.filter((g) => g.resource === 'pods/log').map((g) => g.namespace).sort())
      .toEqual([...new Set(requiredLogs(DETECTORS).map((log) => log.namespace))].sort());
    expect(grants.filter((g) => g.resource === 'pods/proxy').map((g) => g.namespace)).toEqual([OVNKUBE_NAMESPACE]);
    const [, thanosNamespace, thanosName] = /^\/api\/v1\/namespaces\/([^/]+)\/services\/([^/]+)\/proxy\//.exec(THANOS_ALERTS_PATH)!;
    expect(grants.filter((g) => g.resource === 'services/proxy')).toEqual([
      { group: '', resource: 'services/proxy', verbs: ['get'], namespace: thanosNamespace, names: [thanosName] },
    ]);
    // machineconfigs stay cluster-wide: a node's version is read from its rendered MachineConfig, whose name ends in a
    // content hash (the grant test above fails the day no detector needs every MachineConfig).
    expect(covering('machineconfiguration.openshift.io', 'machineconfigs', 'list', undefined, undefined)).toHaveLength(1);
  });

  it('writes nothing but the two reviews and reads no Secrets', () => {
    expect(everything.filter((g) => !isResourceGrant(g)), 'no non-resource URL').toEqual([]);
    for (const grant of grants) {
      expect(grant.resource, 'no Secrets').not.toBe('secrets');
      expect(grant.resource).not.toBe('*');
      const review = ['authentication.k8s.io/tokenreviews', 'authorization.k8s.io/subjectaccessreviews'].includes(key(grant));
      const allowed = review ? ['create'] : grant.resource.includes('/') ? ['get'] : READ;
      expect(grant.verbs, key(grant)).toEqual(allowed);
      if (review) expect(grant.namespace).toBeUndefined();
    }
    expect(grants.filter((g) => g.verbs.includes('create')).map(key).sort())
      .toEqual(['authentication.k8s.io/tokenreviews', 'authorization.k8s.io/subjectaccessreviews']);
  });

  it('runs two restricted-v2 replicas with readiness, liveness and a memory limit, the database URL from a Secret', () => {
    expect(deployment.spec.replicas).toBe(2);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    for (const container of pod.containers) {
      expect(container.securityContext, container.name).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true });
      expect(container.securityContext?.capabilities?.drop, container.name).toEqual(['ALL']);
      expect(container.resources?.limits?.memory, container.name).toMatch(/^\d+(Mi|Gi)$/);
      expect(container.readinessProbe?.httpGet, container.name).toBeDefined();
      expect(container.livenessProbe?.httpGet, container.name).toBeDefined();
    }
    expect(dashboard.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(dashboard.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(dashboard.env?.find((e) => e.name === 'UPDATE_HEALTH_DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe('update-health-postgresql');
    expect(pod.containers.map((c) => c.name)).toEqual(['dashboard']);
  });

  it('logs users in through an OAuthClient whose secret the admin creates, with no token Secret of the dashboard', () => {
    const env = envOf(dashboard);
    expect(env.UPDATE_HEALTH_AUTH).toBe('openshift');
    expect(env.UPDATE_HEALTH_OAUTH_CLIENT_ID).toBe('update-health');
    const sa = one('ServiceAccount', pod.serviceAccountName);
    expect(Object.keys(sa.metadata.annotations ?? {}).filter((k) => k.startsWith('serviceaccounts.openshift.io/oauth-'))).toEqual([]);
    // The client secret file comes from a Secret nobody renders: create-oauth-client.sh makes it with the OAuthClient.
    const mount = dashboard.volumeMounts!.find((m) => env.UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE?.startsWith(`${m.mountPath}/`))!;
    const volume = pod.volumes.find((v) => v.name === mount.name)!;
    expect(volume.secret?.secretName).toBe('update-health-oauth-client');
    expect(all('Secret').map((s) => s.metadata.name)).not.toContain('update-health-oauth-client');
    const script = readFileSync('deploy/openshift/create-oauth-client.sh', 'utf8');
    expect(script).toContain(`secret generic ${volume.secret!.secretName} --from-file=${volume.secret!.items![0].key}=/dev/stdin`);
    expect(script).toMatch(/kind: OAuthClient\nmetadata:\n {2}name: update-health\n/);
    expect(script).toContain('redirectURIs: ["https://$host/auth/callback"]');
    expect(script).toContain('literals: ["user:info", "user:check-access"]');
    // The one token Secret is the metrics scraper's, whose account may get /metrics and nothing else.
    for (const secret of all('Secret')) {
      expect((secret as Manifest & { type: string }).type).toBe('kubernetes.io/service-account-token');
      const owner = secret.metadata.annotations!['kubernetes.io/service-account.name'];
      expect(owner).not.toBe(pod.serviceAccountName);
      expect(accountGrants(rendered, secret.metadata.namespace!, owner)).toEqual([{ nonResourceURL: '/metrics', verbs: ['get'] }]);
    }
  });

  it('keeps the app namespace out of platform monitoring and serves TLS from the router and to Prometheus', () => {
    expect(one('Namespace').metadata.labels ?? {}).not.toHaveProperty(['openshift.io/cluster-monitoring']);
    const service = one<Manifest & { spec: { ports: { name: string; targetPort: string }[] } }>('Service');
    const certSecret = service.metadata.annotations!['service.beta.openshift.io/serving-cert-secret-name'];
    const certVolume = pod.volumes.find((v) => v.secret?.secretName === certSecret)!;
    const certDir = dashboard.volumeMounts!.find((m) => m.name === certVolume.name)!.mountPath;
    expect(envOf(dashboard)).toMatchObject({ UPDATE_HEALTH_TLS_CERT_FILE: `${certDir}/tls.crt`, UPDATE_HEALTH_TLS_KEY_FILE: `${certDir}/tls.key` });
    const port = dashboard.ports!.find((p) => p.name === service.spec.ports[0].targetPort)!;
    expect(dashboard.args).toEqual(['--host', '0.0.0.0', '--port', String(port.containerPort)]);
    for (const probe of [dashboard.readinessProbe, dashboard.livenessProbe]) expect(probe?.httpGet).toMatchObject({ port: port.name, scheme: 'HTTPS' });
    const route = one<Manifest & { spec: { port: { targetPort: string }; tls: { termination: string; insecureEdgeTerminationPolicy: string } } }>('Route');
    expect(route.spec.tls).toEqual({ termination: 'reencrypt', insecureEdgeTerminationPolicy: 'Redirect' });
    expect(route.spec.port.targetPort).toBe(service.spec.ports[0].name);

    type Endpoint = { port: string; scheme: string; bearerTokenFile?: string; tlsConfig: { serverName: string; ca: { configMap: { name: string; key: string } } } };
    const monitor = one<Manifest & { spec: { endpoints: Endpoint[] } }>('ServiceMonitor');
    expect(monitor.metadata.namespace).toBe(APP_NAMESPACE);
    const [endpoint] = monitor.spec.endpoints;
    expect(endpoint).toMatchObject({ port: service.spec.ports[0].name, scheme: 'https', tlsConfig: { serverName: `${service.metadata.name}.${APP_NAMESPACE}.svc` } });
    expect(endpoint.bearerTokenFile, 'user-workload monitoring refuses token files').toBeUndefined();
    const ca = one('ConfigMap', endpoint.tlsConfig.ca.configMap.name);
    expect(ca.metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    expect(endpoint.tlsConfig.ca.configMap.key).toBe('service-ca.crt');

    type Policy = { spec: { ingress: { from: { namespaceSelector: { matchLabels: Record<string, string> } }[]; ports: { port: number }[] }[] } };
    const [rule] = one<Manifest & Policy>('NetworkPolicy').spec.ingress;
    expect(rule.from.map((f) => f.namespaceSelector.matchLabels)).toEqual([
      { 'network.openshift.io/policy-group': 'ingress' }, { 'kubernetes.io/metadata.name': 'openshift-user-workload-monitoring' },
    ]);
    expect(rule.ports.map((p) => p.port)).toEqual([port.containerPort]);
  });

  it('runs images pinned by digest: the release tag imported once, its digest written into the pod template', () => {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    type Trigger = { from: { kind: string; name: string }; fieldPath: string };
    const triggers = JSON.parse(deployment.metadata.annotations!['image.openshift.io/triggers']) as Trigger[];
    expect(triggers).toEqual([{ from: { kind: 'ImageStreamTag', name: `update-health:${version}` }, fieldPath: 'spec.template.spec.containers[?(@.name=="dashboard")].image' }]);
    expect(dashboard.image).toBe(`update-health:${version}`);
    type Tag = { name: string; from: { kind: string; name: string }; importPolicy: { scheduled?: boolean }; referencePolicy: { type: string } };
    const stream = one<Manifest & { spec: { lookupPolicy: { local: boolean }; tags: Tag[] } }>('ImageStream', 'update-health');
    expect(stream.spec.lookupPolicy.local).toBe(true);
    expect(stream.spec.tags).toEqual([{ name: version, from: { kind: 'DockerImage', name: `quay.io/update-health/update-health:${version}` },
      importPolicy: { scheduled: false }, referencePolicy: { type: 'Source' } }]);
    for (const container of pod.containers) expect(container.image, container.name).not.toMatch(/:latest$|^[^:@]+$/);

    const containerfile = readFileSync('deploy/Containerfile', 'utf8');
    const froms = containerfile.split('\n').filter((line) => line.startsWith('FROM '));
    expect(froms).toEqual(['FROM ${BUILD_IMAGE} AS build', 'FROM ${RUNTIME_IMAGE}']);
    expect(containerfile).toMatch(/^ARG BUILD_IMAGE$/m);
    expect(containerfile).toMatch(/^ARG RUNTIME_IMAGE$/m);
    expect(containerfile).not.toMatch(/:latest|\|\| *true/);
  });
});
