/**
 * The OpenShift manifests as `oc apply -k deploy/openshift` would send them (rendered by the machine's kubectl): the
 * service account may read exactly what the detectors read and write nothing but the two reviews; the pods run
 * restricted-v2 with probes on /readyz and /healthz and a memory limit.
 */
import { execFileSync } from 'node:child_process';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { DETECTORS, requiredResources } from '@/lib/health/registry';
import { RESOURCES } from '@/lib/k8s/resources';

interface Manifest { kind: string; metadata: { name: string; annotations?: Record<string, string> }; [key: string]: unknown }
interface Rule { apiGroups: string[]; resources: string[]; verbs: string[] }
interface Container {
  name: string;
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  resources?: { limits?: { memory?: string } };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
}

const rendered = loadAll(execFileSync('kubectl', ['kustomize', 'deploy/openshift'], { encoding: 'utf8' })) as Manifest[];
const one = (kind: string) => {
  const found = rendered.filter((m) => m.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};
const REVIEWS = new Set(['authentication.k8s.io/tokenreviews', 'authorization.k8s.io/subjectaccessreviews']);
const PROXY_AND_LOGS = new Set(['/pods/log', '/pods/proxy', '/services/proxy']);

describe('deploy/openshift', () => {
  it('renders every object an admin needs', () => {
    expect(rendered.map((m) => m.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Deployment', 'Namespace', 'NetworkPolicy',
      'Route', 'Secret', 'Service', 'ServiceAccount', 'ServiceMonitor']);
    const route = one('Route') as unknown as { spec: { tls: { termination: string } } };
    expect(route.spec.tls.termination).toBe('edge');
    const sa = one('ServiceAccount');
    const redirect = Object.entries(sa.metadata.annotations ?? {}).find(([key]) => key.startsWith('serviceaccounts.openshift.io/oauth-redirectreference.'));
    expect(JSON.parse(redirect?.[1] ?? '{}')).toMatchObject({ reference: { kind: 'Route', name: 'update-health' } });
  });

  it('grants read access to exactly the resources the detectors read, no Secrets, and no write verb but the reviews', () => {
    const rules = (one('ClusterRole') as unknown as { rules: Rule[] }).rules;
    const granted = new Map<string, Set<string>>();
    for (const rule of rules) {
      for (const group of rule.apiGroups) for (const resource of rule.resources) {
        const key = `${group}/${resource}`;
        granted.set(key, new Set([...(granted.get(key) ?? []), ...rule.verbs]));
      }
    }
    const needed = new Set(requiredResources(DETECTORS).map((need) => `${RESOURCES[need.resource].group}/${need.resource}`));
    const reads = [...granted].filter(([key]) => !REVIEWS.has(key) && !PROXY_AND_LOGS.has(key)).map(([key]) => key).sort();
    expect(reads).toEqual([...needed].sort());
    for (const [key, verbs] of granted) {
      expect(key, 'no Secrets').not.toMatch(/(^|\/)secrets$/);
      const allowed = REVIEWS.has(key) ? ['create'] : PROXY_AND_LOGS.has(key) ? ['get'] : ['get', 'list', 'watch'];
      expect([...verbs].sort(), key).toEqual([...allowed].sort());
    }
    expect(rules.flatMap((rule) => rule.verbs)).not.toContain('*');
    expect(rules.flatMap((rule) => rule.resources)).not.toContain('*');
  });

  it('runs two restricted-v2 replicas with readiness, liveness and a memory limit, the database URL from a Secret', () => {
    const deployment = one('Deployment') as unknown as {
      spec: { replicas: number; template: { spec: { securityContext: { runAsNonRoot?: boolean; seccompProfile?: { type: string } }; containers: Container[] } } };
    };
    expect(deployment.spec.replicas).toBe(2);
    const pod = deployment.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    for (const container of pod.containers) {
      expect(container.securityContext, container.name).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true });
      expect(container.securityContext?.capabilities?.drop, container.name).toEqual(['ALL']);
      expect(container.resources?.limits?.memory, container.name).toMatch(/^\d+(Mi|Gi)$/);
      expect(container.readinessProbe?.httpGet, container.name).toBeDefined();
      expect(container.livenessProbe?.httpGet, container.name).toBeDefined();
    }
    const dashboard = pod.containers.find((c) => c.name === 'dashboard')!;
    expect(dashboard.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(dashboard.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(dashboard.env?.find((e) => e.name === 'UPDATE_HEALTH_DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe('update-health-postgresql');
  });

  it('logs users in itself, with its service account as the OAuth client and that account\'s token as the secret', () => {
    const deployment = one('Deployment') as unknown as { metadata: { namespace: string }; spec: { template: { spec: { containers: Container[] } } } };
    const env = Object.fromEntries((deployment.spec.template.spec.containers.find((c) => c.name === 'dashboard')!.env ?? []).map((e) => [e.name, e.value]));
    expect(env.UPDATE_HEALTH_AUTH).toBe('openshift');
    expect(env.UPDATE_HEALTH_OAUTH_CLIENT_ID).toBe(`system:serviceaccount:${deployment.metadata.namespace}:${one('ServiceAccount').metadata.name}`);
    const secret = one('Secret') as unknown as { type: string; metadata: { annotations: Record<string, string> } };
    expect(secret.type).toBe('kubernetes.io/service-account-token');
    expect(secret.metadata.annotations['kubernetes.io/service-account.name']).toBe(one('ServiceAccount').metadata.name);
    expect(deployment.spec.template.spec.containers.map((c) => c.name)).toEqual(['dashboard']);
  });
});
