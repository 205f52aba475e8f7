/**
 * The OpenShift manifests as `oc apply -k deploy/openshift` would send them (rendered by the machine's kubectl): no
 * token Secret of any account and an OAuthClient for login, TLS from the router to the pod, platform Prometheus
 * scraping a port of its own over mutual TLS with its client certificate, images pinned by digest, and pods that run
 * restricted-v2 with probes on /readyz and /healthz and a memory limit. Least privilege: openshift-rbac-rules.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMinimumNode, requiredNodeRange } from '@/server/cli/node-version';
import { accountGrants, renderOpenShiftManifests, type Manifest } from './rendered-manifests';

interface Probe {
  httpGet?: { path: string; port: string; scheme?: string };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { limits?: { memory?: string } };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  serviceAccountName: string;
  securityContext: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string; items?: { key: string }[] } }[];
}
interface Deployment extends Manifest {
  spec: { replicas: number; template: { spec: PodSpec } };
}
interface Service extends Manifest {
  spec: { ports: { name: string; targetPort: string }[] };
}
interface Route extends Manifest {
  spec: { port: { targetPort: string }; tls: { termination: string; insecureEdgeTerminationPolicy: string } };
}
interface Endpoint {
  port: string;
  scheme: string;
  path: string;
  tlsConfig: Record<string, unknown>;
  [credential: string]: unknown;
}
interface NetworkPolicy extends Manifest {
  spec: {
    ingress: {
      from: { namespaceSelector: { matchLabels: Record<string, string> }; podSelector?: unknown }[];
      ports: { port: number }[];
    }[];
  };
}
interface ImageTag {
  name: string;
  from: { kind: string; name: string };
  importPolicy: { scheduled?: boolean };
  referencePolicy: { type: string };
}

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
const env = Object.fromEntries((dashboard.env ?? []).map((e) => [e.name, e.value]));
const APP_NAMESPACE = deployment.metadata.namespace!;
const mountOf = (file: string | undefined) => {
  const mount = dashboard.volumeMounts!.find((m) => file?.startsWith(`${m.mountPath}/`))!;
  return { mount, volume: pod.volumes.find((v) => v.name === mount.name)! };
};

describe('deploy/openshift', () => {
  it('renders every object an admin needs, with every namespaced object in a namespace', () => {
    expect([...new Set(rendered.map((m) => m.kind))].sort()).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'ConfigMap',
      'Deployment',
      'ImageStream',
      'Namespace',
      'NetworkPolicy',
      'PrometheusRule',
      'Role',
      'RoleBinding',
      'Route',
      'Service',
      'ServiceAccount',
      'ServiceMonitor',
    ]);
    const clusterScoped = new Set(['ClusterRole', 'ClusterRoleBinding', 'Namespace']);
    for (const m of rendered) {
      expect(m.metadata.namespace === undefined, `${m.kind} ${m.metadata.name}`).toBe(clusterScoped.has(m.kind));
    }
    expect(one('Namespace').metadata.name).toBe(APP_NAMESPACE);
  });

  it('runs two restricted-v2 replicas with probes and a memory limit, the database URL from a Secret', () => {
    expect(deployment.spec.replicas).toBe(2);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    for (const container of pod.containers) {
      expect(container.securityContext, container.name).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
      });
      expect(container.securityContext?.capabilities?.drop, container.name).toEqual(['ALL']);
      expect(container.resources?.limits?.memory, container.name).toMatch(/^\d+(Mi|Gi)$/);
      expect(container.readinessProbe?.httpGet, container.name).toBeDefined();
      expect(container.livenessProbe?.httpGet, container.name).toBeDefined();
    }
    expect(dashboard.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(dashboard.livenessProbe?.httpGet?.path).toBe('/healthz');
    const database = dashboard.env?.find((e) => e.name === 'UPDATE_HEALTH_DATABASE_URL');
    expect(database?.valueFrom?.secretKeyRef?.name).toBe('update-health-postgresql');
    expect(pod.containers.map((c) => c.name)).toEqual(['dashboard']);
  });

  it('logs users in through an OAuthClient whose secret the admin makes, with no token Secret of any account', () => {
    expect(env.UPDATE_HEALTH_AUTH).toBe('openshift');
    expect(env.UPDATE_HEALTH_OAUTH_CLIENT_ID).toBe('update-health');
    const annotations = Object.keys(one('ServiceAccount', pod.serviceAccountName).metadata.annotations ?? {});
    expect(annotations.filter((k) => k.startsWith('serviceaccounts.openshift.io/oauth-'))).toEqual([]);
    // The client secret comes from a Secret nobody renders: create-oauth-client.sh makes it with the OAuthClient.
    const { mount, volume } = mountOf(env.UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE);
    expect(volume.secret?.secretName).toBe('update-health-oauth-client');
    expect(all('Secret').map((s) => s.metadata.name)).not.toContain('update-health-oauth-client');
    const script = readFileSync('deploy/openshift/create-oauth-client.sh', 'utf8');
    const key = volume.secret!.items![0].key;
    expect(env.UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE).toBe(`${mount.mountPath}/${key}`);
    expect(script).toContain(`create secret generic ${volume.secret!.secretName} --from-file=${key}=<(`);
    // Sessions are sealed with one key every replica reads, made once by the same script and kept on rotation.
    const sessionKey = mountOf(env.UPDATE_HEALTH_SESSION_KEY_FILE);
    expect(sessionKey.volume.secret?.secretName).toBe('update-health-oauth-client');
    const sessionItem = sessionKey.volume.secret!.items!.find((item) => item.key === 'session-key');
    expect(env.UPDATE_HEALTH_SESSION_KEY_FILE).toBe(`${sessionKey.mount.mountPath}/${sessionItem!.key}`);
    expect(script).toContain(`--from-file=${sessionItem!.key}=<(`);
    expect(script).toMatch(/kind: OAuthClient\nmetadata:\n {2}name: update-health\n/);
    expect(script).toContain('redirectURIs: ["https://$host/auth/callback"]');
    expect(script).toContain('literals: ["user:info", "user:check-access"]');
    // No Secret at all is rendered, so no token Secret of any account (kubernetes.io/service-account-token).
    expect(all('Secret')).toEqual([]);
    expect(rendered.filter((m) => m.type === 'kubernetes.io/service-account-token')).toEqual([]);
  });

  it('serves TLS to the router, and /metrics to platform Prometheus over mutual TLS with no stored credential', () => {
    const service = one<Service>('Service');
    const certSecret = service.metadata.annotations!['service.beta.openshift.io/serving-cert-secret-name'];
    const { mount, volume } = mountOf(env.UPDATE_HEALTH_TLS_CERT_FILE);
    expect(volume.secret?.secretName).toBe(certSecret);
    expect(env).toMatchObject({
      UPDATE_HEALTH_TLS_CERT_FILE: `${mount.mountPath}/tls.crt`,
      UPDATE_HEALTH_TLS_KEY_FILE: `${mount.mountPath}/tls.key`,
    });
    const portOf = (name: string) => {
      const servicePort = service.spec.ports.find((p) => p.name === name)!;
      return dashboard.ports!.find((p) => p.name === servicePort.targetPort)!;
    };
    const https = portOf('https');
    expect(dashboard.args).toEqual(['--host', '0.0.0.0', '--port', String(https.containerPort)]);
    for (const probe of [dashboard.readinessProbe, dashboard.livenessProbe]) {
      expect(probe?.httpGet).toMatchObject({ port: https.name, scheme: 'HTTPS' });
    }
    const route = one<Route>('Route');
    expect(route.spec.tls).toEqual({ termination: 'reencrypt', insecureEdgeTerminationPolicy: 'Redirect' });
    expect(route.spec.port.targetPort).toBe('https');

    // Platform monitoring (the only stack that presents a client certificate) scrapes the metrics listener's port.
    expect(one('Namespace').metadata.labels).toMatchObject({ 'openshift.io/cluster-monitoring': 'true' });
    const metrics = portOf('metrics');
    expect(env.UPDATE_HEALTH_METRICS_PORT).toBe(String(metrics.containerPort));
    expect(metrics.containerPort).not.toBe(https.containerPort);
    const monitor = one<Manifest & { spec: { scrapeClass: string; endpoints: Endpoint[] } }>('ServiceMonitor');
    expect(monitor.metadata.namespace).toBe(APP_NAMESPACE);
    expect(monitor.spec.scrapeClass).toBe('tls-client-certificate-auth');
    const [endpoint] = monitor.spec.endpoints;
    expect(monitor.spec.endpoints).toHaveLength(1);
    expect(endpoint).toMatchObject({ port: 'metrics', scheme: 'https', path: '/metrics' });
    expect(endpoint.tlsConfig).toEqual({ serverName: `${service.metadata.name}.${APP_NAMESPACE}.svc` });
    for (const credential of ['authorization', 'bearerTokenSecret', 'bearerTokenFile', 'basicAuth', 'oauth2']) {
      expect(endpoint[credential], `${credential}: no stored credential`).toBeUndefined();
    }
    // Prometheus may discover its targets here, and read nothing else.
    const prometheus = accountGrants(rendered, 'openshift-monitoring', 'prometheus-k8s');
    expect(prometheus.every((g) => 'namespace' in g && g.namespace === APP_NAMESPACE)).toBe(true);
    expect(prometheus.filter((g) => 'resource' in g && g.resource === 'secrets')).toEqual([]);
    // The dashboard reads the API server's client CA, by name, to verify Prometheus's certificate.
    expect(accountGrants(rendered, APP_NAMESPACE, pod.serviceAccountName)).toContainEqual({
      group: '',
      resource: 'configmaps',
      verbs: ['get'],
      namespace: 'kube-system',
      names: ['extension-apiserver-authentication'],
    });

    const [router, scraper, ...others] = one<NetworkPolicy>('NetworkPolicy').spec.ingress;
    expect(others).toEqual([]);
    expect(router.from).toEqual([
      { namespaceSelector: { matchLabels: { 'network.openshift.io/policy-group': 'ingress' } } },
    ]);
    expect(router.ports.map((p) => p.port)).toEqual([https.containerPort]);
    expect(scraper.from).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-monitoring' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
      },
    ]);
    expect(scraper.ports.map((p) => p.port)).toEqual([metrics.containerPort]);
  });

  it('runs images pinned by digest: the release tag imported once, its digest written into the pod template', () => {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    const triggers = JSON.parse(deployment.metadata.annotations!['image.openshift.io/triggers']) as unknown;
    expect(triggers).toEqual([
      {
        from: { kind: 'ImageStreamTag', name: `update-health:${version}` },
        fieldPath: 'spec.template.spec.containers[?(@.name=="dashboard")].image',
      },
    ]);
    expect(dashboard.image).toBe(`update-health:${version}`);
    type ImageStream = Manifest & { spec: { lookupPolicy: { local: boolean }; tags: ImageTag[] } };
    const stream = one<ImageStream>('ImageStream', 'update-health');
    expect(stream.spec.lookupPolicy.local).toBe(true);
    expect(stream.spec.tags).toEqual([
      {
        name: version,
        from: { kind: 'DockerImage', name: `quay.io/update-health/update-health:${version}` },
        importPolicy: { scheduled: false },
        referencePolicy: { type: 'Source' },
      },
    ]);
    for (const container of pod.containers) expect(container.image, container.name).not.toMatch(/:latest$|^[^:@]+$/);

    const containerfile = readFileSync('deploy/Containerfile', 'utf8');
    const froms = containerfile.split('\n').filter((line) => line.startsWith('FROM '));
    expect(froms).toEqual(['FROM ${BUILD_IMAGE} AS build', 'FROM ${RUNTIME_IMAGE}']);
    expect(containerfile).toMatch(/^ARG BUILD_IMAGE$/m);
    expect(containerfile).toMatch(/^ARG RUNTIME_IMAGE$/m);
    expect(containerfile).not.toMatch(/:latest|\|\| *true/);
  });

  it('documents base images of the Node.js major package.json engines names, the same in the Containerfile and README', () => {
    const [major] = parseMinimumNode(requiredNodeRange());
    const images = `registry.access.redhat.com/ubi9/nodejs-${major}`;
    const expected = [`BUILD_IMAGE=${images}`, `RUNTIME_IMAGE=${images}-minimal`];
    const documented = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/--build-arg (\w+=\S+)@sha256:<digest>/g)].map((match) => match[1]);
    expect(documented('deploy/Containerfile')).toEqual(expected);
    expect(documented('README.md')).toEqual(expected);
    expect(readFileSync('README.md', 'utf8')).toContain(`skopeo inspect docker://${images}:latest`);
  });
});
