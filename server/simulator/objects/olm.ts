import { releaseRunsOlmv1 } from '@/lib/health/shared/olmv1-presence';
import type { KubeObject } from '@/lib/k8s/types';
import { componentImage } from './releases';
import { isoMicro } from './time';

/**
 * Whether a release runs OLMv1 (catalogd, operator-controller, the `olm` ClusterOperator): the detectors' own rule
 * ({@link releaseRunsOlmv1}), so the simulated world and the dashboard cannot disagree about it.
 */
export function runsOlmV1(version: string, featureSet = ''): boolean {
  return releaseRunsOlmv1(version, featureSet) === true;
}

/** Namespace of catalogd on OpenShift. */
export const CATALOGD_NAMESPACE = 'openshift-catalogd';
/** catalogd's Deployment (and PDB) name. */
export const CATALOGD_DEPLOYMENT = 'catalogd-controller-manager';
/** catalogd's leader-election Lease. */
export const CATALOGD_LEASE = 'catalogd-operator-lock';
/** catalogd's Service (catalog content is served through it). */
export const CATALOGD_SERVICE = 'catalogd-service';
/** Port the catalogd manager container serves catalogs on (service port 443 → 8443). */
export const CATALOGD_PORT = 8443;
/** Namespace of operator-controller on OpenShift. */
export const OPERATOR_CONTROLLER_NAMESPACE = 'openshift-operator-controller';
/** operator-controller's Deployment (and PDB) name. */
export const OPERATOR_CONTROLLER_DEPLOYMENT = 'operator-controller-controller-manager';

/** Rolling strategy of a Deployment. */
export interface StrategyInput {
  maxSurge: number | string;
  maxUnavailable: number | string;
}

/** The catalogd or operator-controller Deployment, shaped on the OpenShift manifests in server/fixtures/olmv1. */
export function buildOlmDeployment(
  component: 'catalogd' | 'operator-controller',
  replicas: number,
  version: string,
  strategy?: StrategyInput,
): KubeObject {
  const catalogd = component === 'catalogd';
  const name = catalogd ? CATALOGD_DEPLOYMENT : OPERATOR_CONTROLLER_DEPLOYMENT;
  const namespace = catalogd ? CATALOGD_NAMESPACE : OPERATOR_CONTROLLER_NAMESPACE;
  const args = catalogd
    ? [
        '--leader-elect',
        '--metrics-bind-address=127.0.0.1:8080',
        `--external-address=${CATALOGD_SERVICE}.${CATALOGD_NAMESPACE}.svc`,
        '--tls-cert=/var/certs/tls.crt',
        '--tls-key=/var/certs/tls.key',
      ]
    : ['--health-probe-bind-address=:8081', '--metrics-bind-address=127.0.0.1:8080', '--leader-elect'];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      annotations: {
        'kubectl.kubernetes.io/default-logs-container': 'manager',
        'release.openshift.io/version': version,
      },
      labels: { 'app.kubernetes.io/name': component, 'app.kubernetes.io/part-of': 'olm' },
    },
    spec: {
      minReadySeconds: 5,
      replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { 'control-plane': name } },
      strategy: strategy
        ? {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: strategy.maxSurge, maxUnavailable: strategy.maxUnavailable },
          }
        : { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: {
          annotations: {
            'kubectl.kubernetes.io/default-container': 'manager',
            'target.workload.openshift.io/management': '{"effect": "PreferredDuringScheduling"}',
          },
          labels: { 'app.kubernetes.io/name': component, 'control-plane': name, 'app.kubernetes.io/part-of': 'olm' },
        },
        spec: {
          containers: [
            {
              name: 'kube-rbac-proxy',
              image: componentImage('kube-rbac-proxy', version),
              ports: [{ containerPort: 8443, name: 'https', protocol: 'TCP' }],
            },
            {
              name: 'manager',
              image: componentImage(catalogd ? 'olm-catalogd' : 'olm-operator-controller', version),
              args,
              ...(catalogd
                ? { ports: [{ containerPort: CATALOGD_PORT, name: 'catalogserver', protocol: 'TCP' }] }
                : {}),
            },
          ],
          nodeSelector: { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/master': '' },
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: name,
          terminationGracePeriodSeconds: 10,
          tolerations: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/master', operator: 'Exists' }],
        },
      },
    },
  };
}

/** The PDB protecting an OLMv1 Deployment (upstream v1.8.0 ships minAvailable: 1). */
export function buildOlmPdb(
  component: 'catalogd' | 'operator-controller',
  budget: { minAvailable?: number; maxUnavailable?: number },
): KubeObject {
  const catalogd = component === 'catalogd';
  const name = catalogd ? CATALOGD_DEPLOYMENT : OPERATOR_CONTROLLER_DEPLOYMENT;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name,
      namespace: catalogd ? CATALOGD_NAMESPACE : OPERATOR_CONTROLLER_NAMESPACE,
      labels: { 'app.kubernetes.io/name': component, 'app.kubernetes.io/part-of': 'olm' },
    },
    spec: { ...budget, selector: { matchLabels: { 'control-plane': name } } },
  };
}

/** catalogd's Service. */
export function buildCatalogdService(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: CATALOGD_SERVICE,
      namespace: CATALOGD_NAMESPACE,
      labels: { 'app.kubernetes.io/name': 'catalogd' },
    },
    spec: {
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: CATALOGD_PORT }],
      selector: { 'control-plane': CATALOGD_DEPLOYMENT },
      type: 'ClusterIP',
    },
  };
}

/** A leader-election Lease held by `holder`. */
export function buildLease(
  namespace: string,
  name: string,
  holder: string,
  nowMs: number,
  transitions: number,
): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
    spec: {
      acquireTime: isoMicro(nowMs),
      holderIdentity: holder,
      leaseDurationSeconds: 137,
      leaseTransitions: transitions,
      renewTime: isoMicro(nowMs),
    },
  };
}

/** A ClusterCatalog pulling an index image. */
export function buildClusterCatalog(name: string, image: string): KubeObject {
  return {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterCatalog',
    metadata: { name, labels: { 'olm.operatorframework.io/metadata.name': name } },
    spec: {
      availabilityMode: 'Available',
      priority: -100,
      source: { type: 'Image', image: { ref: image, pollIntervalMinutes: 10 } },
    },
  };
}
