import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '@/lib/k8s/types';
import { featureGateCoverage } from '@/lib/health/detectors/featuregate-coverage/featuregate-coverage';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import {
  makeClusterOperator,
  makeClusterVersion,
  makeContext,
  makePod,
  makeSnapshot,
} from '@/lib/health/testing/builders';

const fixtures = join(import.meta.dirname, '../../../../server/fixtures');
const readFixture = (path: string): unknown => load(readFileSync(join(fixtures, path), 'utf8'));
const ctx = makeContext('2024-06-01T12:00:00Z');

/** The real HyperShift FeatureGate (kas-bootstrap testdata, 4.17.20), its one entry re-labelled per version. */
function featureGateWith(versions: string[]): KubeObject {
  const real = readFixture('hypershift/featuregate/kas-bootstrap-testdata-99_feature-gate-4.17.20.json') as KubeObject;
  const [entry] = (real.status as { featureGates: { version: string }[] }).featureGates;
  expect(entry.version).toBe('4.17.20');
  return { ...real, status: { featureGates: versions.map((version) => ({ ...entry, version })) } };
}

const FG_REF = { apiVersion: 'config.openshift.io/v1', kind: 'FeatureGate', name: 'cluster' };
const CV_REF = { apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', name: 'version' };
const LIBRARY_GO =
  'unable to determine features: missing desired version "4.14.38" in featuregates.config.openshift.io/cluster';

function hostedCluster(fgVersions: string[], crashing: boolean): ReturnType<typeof makeSnapshot> {
  const operators = [
    makeClusterOperator('console', '4.14.39'),
    makeClusterOperator('dns', '4.14.38'),
    makeClusterOperator('ingress', '4.14.38'),
    makeClusterOperator('network', '4.14.39'),
  ];
  const pods = crashing
    ? [
        makePod({
          namespace: 'openshift-ingress-operator',
          name: 'ingress-operator-6b9c7d8f5-x2lqp',
          containers: [
            {
              name: 'ingress-operator',
              restartCount: 7,
              waiting: {
                reason: 'CrashLoopBackOff',
                message: 'back-off 5m0s restarting failed container=ingress-operator',
              },
              lastTerminated: {
                exitCode: 255,
                reason: 'Error',
                message: LIBRARY_GO,
                finishedAt: '2024-06-01T11:40:00Z',
              },
            },
          ],
        }),
      ]
    : [];
  return makeSnapshot({
    clusterversions: [
      makeClusterVersion({
        desired: '4.14.39',
        progressing: true,
        history: [
          { version: '4.14.39', state: 'Partial' },
          { version: '4.14.38', state: 'Completed' },
        ],
      }),
    ],
    clusteroperators: operators,
    featuregates: [featureGateWith(fgVersions)],
    pods,
  });
}

describe('featureGateCoverage — HyperShift 4.14.38 → 4.14.39 replacement', () => {
  it('flags 4.14.38 as critical before any consumer crashes (outgoing version during the update)', () => {
    const out = featureGateCoverage.detect(hostedCluster(['4.14.39'], false), ctx);
    expect(out.samples).toStrictEqual({ required: 2, present: 1, missing: 1 });
    expect(out.findings).toHaveLength(1);
    const [f] = out.findings;
    expect(f).toMatchObject({
      id: 'featuregate-coverage:FeatureGate//cluster:missing-4.14.38',
      detector: 'featuregate-coverage',
      severity: 'critical',
      subject: FG_REF,
      title: 'FeatureGate status dropped outgoing version 4.14.38 during the update',
    });
    expect(f.since).toBeUndefined();
    expect(f.evidence).toStrictEqual([
      {
        kind: 'field',
        label: 'FeatureGate status versions',
        ref: FG_REF,
        path: 'status.featureGates[].version',
        value: ['4.14.39'],
      },
      { kind: 'field', label: 'Desired version', ref: CV_REF, path: 'status.desired.version', value: '4.14.39' },
      {
        kind: 'field',
        label: 'ClusterVersion history (back to the first Completed)',
        ref: CV_REF,
        path: 'status.history[].version',
        value: ['4.14.39 (Partial)', '4.14.38 (Completed)'],
      },
      {
        kind: 'field',
        label: 'ClusterOperators at 4.14.38',
        path: 'status.versions[name=operator].version',
        value: ['dns', 'ingress'],
      },
    ]);
    expect(f.summary).toContain('still required by 2 ClusterOperators (dns, ingress)');
    expect(f.remediation[0].command).toBe(
      `oc get featuregate cluster -o jsonpath='{range .status.featureGates[*]}{.version}{"\\n"}{end}'`,
    );
  });

  it('corroborates with crash-looping consumers and dates the finding from the first crash', () => {
    const [f] = featureGateCoverage.detect(hostedCluster(['4.14.39'], true), ctx).findings;
    expect(f.since).toBe('2024-06-01T11:40:00Z');
    expect(f.evidence.at(-1)).toStrictEqual({
      kind: 'log',
      label: 'Crash-looping consumer (7 restarts)',
      ref: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'ingress-operator-6b9c7d8f5-x2lqp',
        namespace: 'openshift-ingress-operator',
      },
      container: 'ingress-operator',
      lines: [LIBRARY_GO],
      at: '2024-06-01T11:40:00Z',
    });
    expect(f.summary).toContain('1 container(s) already report it, 1 in CrashLoopBackOff.');
  });

  it('is quiet once the control plane keeps the history version', () => {
    const out = featureGateCoverage.detect(hostedCluster(['4.14.39', '4.14.38'], false), ctx);
    expect(out).toStrictEqual({ findings: [], samples: { required: 2, present: 2, missing: 0 } });
  });
});

describe('featureGateCoverage — the real HyperShift control-plane-operator FeatureGate, unmodified', () => {
  const real = (variant: string): KubeObject =>
    readFixture(`hypershift/featuregate/cpo-testdata-feature-gate-4.19.0-ec.4-${variant}.json`) as KubeObject;

  it.each(['Default', 'TechPreviewNoUpgrade'])('%s: covers a hosted cluster that completed 4.19.0-ec.4', (variant) => {
    const snapshot = makeSnapshot({
      clusterversions: [
        makeClusterVersion({ desired: '4.19.0-ec.4', history: [{ version: '4.19.0-ec.4', state: 'Completed' }] }),
      ],
      clusteroperators: [makeClusterOperator('dns', '4.19.0-ec.4')],
      featuregates: [real(variant)],
    });
    expect(featureGateCoverage.detect(snapshot, ctx)).toStrictEqual({
      findings: [],
      samples: { required: 1, present: 1, missing: 0 },
    });
  });

  it('lacks the outgoing version when the same object is rendered mid-update from 4.18.9', () => {
    const snapshot = makeSnapshot({
      clusterversions: [
        makeClusterVersion({
          desired: '4.19.0-ec.4',
          progressing: true,
          history: [
            { version: '4.19.0-ec.4', state: 'Partial' },
            { version: '4.18.9', state: 'Completed' },
          ],
        }),
      ],
      featuregates: [real('Default')],
    });
    expect(featureGateCoverage.detect(snapshot, ctx).findings.map((f) => [f.id, f.severity])).toStrictEqual([
      ['featuregate-coverage:FeatureGate//cluster:missing-4.18.9', 'critical'],
    ]);
  });
});

describe('featureGateCoverage — standalone', () => {
  it('is quiet on an appended list (every history version kept)', () => {
    const history = ['4.14.39', '4.14.38', '4.13.40', '4.12.55'].map((version) => ({
      version,
      state: 'Completed' as const,
    }));
    const snapshot = makeSnapshot({
      clusterversions: [makeClusterVersion({ desired: '4.14.39', history })],
      clusteroperators: [makeClusterOperator('dns', '4.14.39')],
      featuregates: [featureGateWith(['4.14.39', '4.14.38', '4.13.40', '4.12.55'])],
    });
    expect(featureGateCoverage.detect(snapshot, ctx)).toStrictEqual({
      findings: [],
      samples: { required: 1, present: 4, missing: 0 },
    });
  });

  it('reports versions the history no longer knows as prunable info', () => {
    const snapshot = makeSnapshot({
      clusterversions: [
        makeClusterVersion({ desired: '4.14.39', history: [{ version: '4.14.39', state: 'Completed' }] }),
      ],
      featuregates: [featureGateWith(['4.14.39', '4.11.2', '4.10.9'])],
    });
    const { findings } = featureGateCoverage.detect(snapshot, ctx);
    expect(findings.map((f) => [f.id, f.severity, f.title])).toStrictEqual([
      [
        'featuregate-coverage:FeatureGate//cluster:prunable',
        'info',
        '2 FeatureGate status versions not in ClusterVersion history',
      ],
    ]);
    expect(findings[0].evidence[0].value).toStrictEqual(['4.10.9', '4.11.2']);
  });

  it('uses the real 4.14.1 update capture: the one operator still on 4.14.0-rc.3 needs its version', () => {
    const cv = readFixture('oc-upgrade/status/4.14.1-degraded-cv.yaml') as KubeObject;
    const cos = (readFixture('oc-upgrade/status/4.14.1-degraded-co.yaml') as KubeList).items;
    const snapshot = makeSnapshot({
      clusterversions: [cv],
      clusteroperators: cos,
      featuregates: [featureGateWith(['4.14.1'])],
    });
    const out = featureGateCoverage.detect(snapshot, ctx);
    expect(out.samples).toStrictEqual({ required: 2, present: 1, missing: 1 });
    expect(out.findings.map((f) => [f.id, f.severity, f.title])).toStrictEqual([
      [
        'featuregate-coverage:FeatureGate//cluster:missing-4.14.0-rc.3',
        'critical',
        'FeatureGate status dropped outgoing version 4.14.0-rc.3 during the update',
      ],
    ]);
    const operators = out.findings[0].evidence.find((e) => e.label === 'ClusterOperators at 4.14.0-rc.3');
    expect(operators?.value).toHaveLength(1);
    expect(
      featureGateCoverage.detect(
        { ...snapshot, objects: { ...snapshot.objects, featuregates: [featureGateWith(['4.14.1', '4.14.0-rc.3'])] } },
        ctx,
      ).findings,
    ).toStrictEqual([]);
  });

  it('returns null samples without a ClusterVersion or FeatureGate', () => {
    expect(featureGateCoverage.detect(makeSnapshot(), ctx)).toStrictEqual({
      findings: [],
      samples: { required: null, present: null, missing: null },
    });
  });
});

describe('clusters before 4.14', () => {
  it('does not flag a FeatureGate that never recorded versions (the real 4.8.11 must-gather)', () => {
    const root =
      'server/fixtures/must-gather/azure-4.8.11/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-415e56a6d8d2b8576c59d08a7c57a7d081fa59e7dc3cd8782ed7bcd6080c7c12/cluster-scoped-resources/config.openshift.io';
    const cv = (load(readFileSync(join(root, 'clusterversions.yaml'), 'utf8')) as KubeList).items[0];
    const fg = (load(readFileSync(join(root, 'featuregates.yaml'), 'utf8')) as KubeList).items[0];
    expect(fg.status === undefined || !('featureGates' in (fg.status as object))).toBe(true);
    const result = featureGateCoverage.detect(
      {
        objects: { clusterversions: [cv], featuregates: [fg], clusteroperators: [] },
        transitions: [],
        logs: [],
        probes: [],
      },
      { now: Date.parse('2021-09-20T00:00:00Z'), config: DEFAULT_HEALTH_CONFIG },
    );
    expect(result.findings).toEqual([]);
  });
});
