import type { KubeObject } from '@/lib/k8s/types';

/** Test helpers: small objects shaped like the real ones in server/fixtures (not used by the simulator itself). */

/** A ClusterVersion `version` at `version` with the given enabled capabilities. */
export function testClusterVersion(
  version = '4.14.10',
  enabledCapabilities: string[] = ['openshift-samples'],
): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '0d4b5c3e-2f6a-4c1b-9d7e-8a1f2b3c4d5e', channel: 'stable-4.14' },
    status: {
      availableUpdates: null,
      desired: { version, image: `quay.io/openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)}` },
      observedGeneration: 1,
      versionHash: 'abcdefgh',
      capabilities: { enabledCapabilities, knownCapabilities: enabledCapabilities },
      history: [
        {
          state: 'Completed',
          version,
          image: 'quay.io/x',
          startedTime: '2026-11-22T08:00:00Z',
          completionTime: '2026-11-22T08:40:00Z',
          verified: true,
        },
      ],
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastTransitionTime: '2026-11-22T08:40:00Z',
          message: `Done applying ${version}`,
        },
      ],
    },
  };
}

/** The FeatureGate `cluster`. */
export function testFeatureGate(version = '4.14.10'): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'FeatureGate',
    metadata: { name: 'cluster' },
    spec: {},
    status: { featureGates: [{ version, enabled: [{ name: 'AlibabaPlatform' }], disabled: [{ name: 'GatewayAPI' }] }] },
  };
}

/** A namespace. */
export function testNamespace(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/** A running pod with one or two containers. */
export function testPod(
  namespace: string,
  name: string,
  options: { node?: string; labels?: Record<string, string>; containers?: string[] } = {},
): KubeObject {
  const containers = options.containers ?? ['main'];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: options.labels ?? { app: name } },
    spec: {
      nodeName: options.node ?? 'worker-0',
      containers: containers.map((container) => ({
        name: container,
        image: 'quay.io/openshift/example:latest',
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
      })),
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: '2026-11-22T08:00:00Z' },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-11-22T08:00:00Z' },
      ],
    },
  };
}
