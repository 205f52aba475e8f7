import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '@/lib/k8s/types';
import { featureGateCoverage } from '@/lib/health/detectors/featuregate-coverage/featuregate-coverage';
import { hostedControlPlane, namedComponents } from '@/lib/health/detectors/hosted-control-plane/hosted-control-plane';
import { makeContext, makePod, makeSnapshot } from '@/lib/health/testing/builders';

const fixtures = join(import.meta.dirname, '../../../../server/fixtures/hypershift');
const read = (path: string): unknown => load(readFileSync(join(fixtures, path), 'utf8'));
const ctx = makeContext('2024-06-01T12:00:00Z');

const fengTest = () =>
  read('management/hostedcluster-acmconsole-feng-test-v1alpha1-clusterversion-failing.yaml') as KubeObject;
const kni21 = () => (read('management/hostedcluster-kni21-agent-v1alpha1-installing.yaml') as KubeList).items[0];
const aroDegraded = () =>
  (read('management/hostedcluster-conditions-aro-hcp-degraded-2026.yaml') as { status: unknown }).status;

describe('hostedControlPlane on real HostedClusters', () => {
  it('warns on ClusterVersionSucceeding=False naming the cluster operators (stolostron capture, v1alpha1)', () => {
    const { findings } = hostedControlPlane.detect(makeSnapshot({ hostedclusters: [fengTest()] }), ctx);
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['hosted-control-plane:HostedCluster/feng-test/feng-test:clusterversionsucceeding', 'warning'],
    ]);
    expect(findings[0].title).toBe(
      'Hosted cluster version not succeeding: console, csi-snapshot-controller, dns, image-registry, insights, ' +
        'kube-storage-version-migrator, monitoring, network, openshift-samples, service-ca, storage not available',
    );
    expect(findings[0].since).toBe('2022-11-03T19:52:46Z');
  });

  it('warns on Degraded=True naming the unavailable deployment (ARO HCP capture)', () => {
    const hc = { ...kni21(), status: aroDegraded() };
    const { findings } = hostedControlPlane.detect(makeSnapshot({ hostedclusters: [hc] }), ctx);
    expect(findings.map((f) => [f.severity, f.title])).toEqual([
      ['warning', 'Hosted control plane degraded: ingress-operator'],
    ]);
    expect(findings[0].evidence[0]).toMatchObject({
      kind: 'condition',
      label: 'Degraded=True (UnavailableReplicas)',
      value: 'ingress-operator deployment has 1 unavailable replicas',
    });
  });

  it('is quiet on a healthy HostedCluster (kni21, all conditions as expected)', () => {
    const out = hostedControlPlane.detect(makeSnapshot({ hostedclusters: [kni21()] }), ctx);
    expect(out.findings).toEqual([]);
    expect(out.samples).toEqual({ unavailableComponents: 0, nodePoolsNotReady: 0 });
  });

  it('stays out of snapshots that are not one hosted cluster', () => {
    expect(hostedControlPlane.detect(makeSnapshot({ hostedclusters: [fengTest(), kni21()] }), ctx).findings).toEqual(
      [],
    );
  });

  it('reads component names from the message shapes HyperShift and the CVO write', () => {
    expect(
      namedComponents('Waiting for components to be available: packageserver, catalog-operator, olm-operator'),
    ).toEqual(['packageserver', 'catalog-operator', 'olm-operator']);
    expect(
      namedComponents(
        '[packageserver deployment has 3 unavailable replicas, catalog-operator deployment has 1 unavailable replicas]',
      ),
    ).toEqual(['packageserver', 'catalog-operator']);
    expect(namedComponents('Cluster operators ingress, network, storage are not available')).toEqual([
      'ingress',
      'network',
      'storage',
    ]);
    expect(namedComponents('Cluster operator network is not available')).toEqual(['network']);
    expect(namedComponents('All is well')).toEqual([]);
  });
});

describe('featureGateCoverage from the management side (rendered FeatureGate in the HCP namespace)', () => {
  /** The real HyperShift FeatureGate (kas-bootstrap testdata, 4.17.20) as the featuregate-generator Job stores it. */
  function configMap(versions: string[]): KubeObject {
    const real = JSON.parse(
      readFileSync(join(fixtures, 'featuregate/kas-bootstrap-testdata-99_feature-gate-4.17.20.json'), 'utf8'),
    ) as KubeObject;
    const [entry] = (real.status as { featureGates: Record<string, unknown>[] }).featureGates;
    const rendered = { ...real, status: { featureGates: versions.map((version) => ({ ...entry, version })) } };
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'feature-gate', namespace: 'feng-test-feng-test' },
      data: { 'feature-gate.yaml': dump(rendered) },
    } as KubeObject;
  }

  it('flags the outgoing version missing during an update, with the crash-looping HCP pod as evidence', () => {
    const hc = fengTest();
    (hc.status as { version: unknown }).version = {
      desired: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.21-x86_64', version: '4.17.21' },
      history: [
        { version: '4.17.21', state: 'Partial', startedTime: '2024-06-01T11:00:00Z', image: 'x', verified: false },
        {
          version: '4.17.20',
          state: 'Completed',
          startedTime: '2024-05-01T11:00:00Z',
          completionTime: '2024-05-01T11:30:00Z',
          image: 'y',
          verified: false,
        },
      ],
    };
    const pod = makePod({
      name: 'cluster-network-operator-5f7c9d-x2k4p',
      namespace: 'feng-test-feng-test',
      containers: [
        {
          name: 'cluster-network-operator',
          restartCount: 4,
          waiting: { reason: 'CrashLoopBackOff' },
          lastTerminated: {
            exitCode: 255,
            reason: 'Error',
            finishedAt: '2024-06-01T11:40:00Z',
            message:
              'unable to determine features: missing desired version "4.17.20" in featuregates.config.openshift.io/cluster',
          },
        },
      ],
    });
    const cpc = {
      apiVersion: 'hypershift.openshift.io/v1beta1',
      kind: 'ControlPlaneComponent',
      metadata: { name: 'cluster-network-operator', namespace: 'feng-test-feng-test' },
      status: { version: '4.17.20' },
    } as KubeObject;
    const { findings } = featureGateCoverage.detect(
      makeSnapshot({
        hostedclusters: [hc],
        configmaps: [configMap(['4.17.21'])],
        pods: [pod],
        controlplanecomponents: [cpc],
      }),
      ctx,
    );
    expect(findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      [
        'featuregate-coverage:ConfigMap/feng-test-feng-test/feature-gate:missing-4.17.20',
        'critical',
        'FeatureGate status dropped outgoing version 4.17.20 during the update',
      ],
    ]);
    expect(findings[0].summary).toContain('1 control-plane component (cluster-network-operator)');
    expect(findings[0].evidence.find((e) => e.kind === 'log')).toMatchObject({
      label: 'Crash-looping consumer (4 restarts)',
      ref: { kind: 'Pod', namespace: 'feng-test-feng-test', name: 'cluster-network-operator-5f7c9d-x2k4p' },
    });
    expect(findings[0].remediation[0].command).toContain('oc get configmap feature-gate -n feng-test-feng-test');
  });

  it('is quiet when the rendered FeatureGate keeps every required version', () => {
    const hc = fengTest();
    (hc.status as { version: unknown }).version = {
      desired: { image: 'x', version: '4.17.20' },
      history: [
        { version: '4.17.20', state: 'Completed', startedTime: '2024-05-01T11:00:00Z', image: 'x', verified: false },
      ],
    };
    const out = featureGateCoverage.detect(
      makeSnapshot({ hostedclusters: [hc], configmaps: [configMap(['4.17.20'])] }),
      ctx,
    );
    expect(out.findings).toEqual([]);
    expect(out.samples).toEqual({ required: 1, present: 1, missing: 0 });
  });
});
