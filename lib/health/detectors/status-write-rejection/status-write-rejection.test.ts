import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { findingSchema } from '@/lib/api/dto';
import { evaluate } from '@/lib/health/evaluate';
import type { KubeObject } from '@/lib/k8s/types';
import {
  predictRejection,
  statusWriteRejection,
} from '@/lib/health/detectors/status-write-rejection/status-write-rejection';
import { makeClusterVersion, makeContext, makeSnapshot } from '@/lib/health/testing/builders';

const fixtures = join(import.meta.dirname, '../../../../server/fixtures');
const yaml = (path: string): KubeObject => load(readFileSync(join(fixtures, path), 'utf8')) as KubeObject;
const crd = (release: string): KubeObject => yaml(`openshift-api/crds/clusterversion/${release}.yaml`);
const realCv = yaml('oc-upgrade/status/4.14.1-degraded-cv.yaml');
const now = '2023-11-03T18:00:00Z';
const ctx = makeContext(now);

const SUPPORTED_413 =
  '"openshift-samples", "baremetal", "marketplace", "Console", "Insights", "Storage", "CSISnapshot", "NodeTuning"';
const CVO_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  name: 'cluster-version-operator-6c9b5d8b6d-7xk2p',
  namespace: 'openshift-cluster-version',
};
const CVO_LOG =
  'E1103 17:40:01.123456       1 cvo.go:664] Error handling openshift-cluster-version/version: ' +
  'ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.enabledCapabilities[0]: Unsupported value: "Build": supported values: ' +
  SUPPORTED_413;

describe('statusWriteRejection — acceptance: real 4.14.1 ClusterVersion against real CRDs', () => {
  it('the real capture enables exactly these capabilities', () => {
    expect(
      (realCv.status as { capabilities: { enabledCapabilities: string[] } }).capabilities.enabledCapabilities,
    ).toStrictEqual([
      'Build',
      'CSISnapshot',
      'Console',
      'DeploymentConfig',
      'ImageRegistry',
      'Insights',
      'MachineAPI',
      'NodeTuning',
      'Storage',
      'baremetal',
      'marketplace',
      'openshift-samples',
    ]);
  });

  it('flags exactly Build, DeploymentConfig, ImageRegistry, MachineAPI against the 4.13 CRD', () => {
    const out = statusWriteRejection.detect(
      makeSnapshot({ clusterversions: [realCv], customresourcedefinitions: [crd('4.13')] }),
      ctx,
    );
    expect(out.samples).toStrictEqual({ rejectedValues: 4, staleSeconds: null });
    expect(out.findings).toHaveLength(1);
    const [f] = out.findings;
    expect(f).toMatchObject({
      id: 'status-write-rejection:ClusterVersion//version:enum',
      detector: 'status-write-rejection',
      severity: 'critical',
      subject: { apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', name: 'version' },
      title: 'ClusterVersion status writes will be rejected',
      basis: 'predicted',
    });
    expect(f.since).toBeUndefined();
    expect(f.evidence[0]).toMatchObject({
      value: ['Build', 'DeploymentConfig', 'ImageRegistry', 'MachineAPI'],
      path:
        'status.capabilities.enabledCapabilities[0], status.capabilities.enabledCapabilities[3], ' +
        'status.capabilities.enabledCapabilities[4], status.capabilities.enabledCapabilities[6], ' +
        'status.capabilities.knownCapabilities[0], status.capabilities.knownCapabilities[3], ' +
        'status.capabilities.knownCapabilities[4], status.capabilities.knownCapabilities[6]',
    });
    const message = f.evidence[2].value as string;
    expect(
      message.startsWith(
        'ClusterVersion.config.openshift.io "version" is invalid: [' +
          `status.capabilities.enabledCapabilities[0]: Unsupported value: "Build": supported values: ${SUPPORTED_413}, ` +
          `status.capabilities.enabledCapabilities[3]: Unsupported value: "DeploymentConfig": supported values: ${SUPPORTED_413}, `,
      ),
    ).toBe(true);
    expect(
      message.endsWith(
        `status.capabilities.knownCapabilities[6]: Unsupported value: "MachineAPI": supported values: ${SUPPORTED_413}]`,
      ),
    ).toBe(true);
    expect(f.summary).toContain('enum matches 4.13');
    expect(f.remediation.map((r) => r.command)).toContain(
      "oc -n openshift-cluster-version logs deploy/cluster-version-operator | grep 'is invalid'",
    );
    // 4.14.1 is in the history with its image and its CRD accepts everything: roll forward to it.
    expect(f.remediation.at(-1)?.command).toBe(
      'oc adm upgrade --to-image=quay.io/openshift-release-dev/ocp-release@sha256:05ba8e63f8a76e568afe87f182334504a01d47342b6ad5b4c3ff83a2463018bd --allow-explicit-upgrade',
    );
  });

  it("reads like oc's insight once evaluated: Critical, Update Stalled, control plane, the ClusterVersion and its CRD", () => {
    const { findings } = evaluate(
      makeSnapshot({ clusterversions: [realCv], customresourcedefinitions: [crd('4.13')] }),
      ctx,
      [statusWriteRejection],
    );
    const enumFinding = findings.find((f) => f.severity === 'critical')!;
    expect(enumFinding.insight).toMatchObject({
      level: 'Critical',
      impactType: 'Update Stalled',
      scope: { type: 'ControlPlane' },
    });
    expect(enumFinding.insight?.scope.resources.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['ClusterVersion', 'CustomResourceDefinition']),
    );
    expect(enumFinding.insight?.referenceUrl).toMatch(/^https:\/\//);
    expect(findingSchema.parse(enumFinding).insight).toEqual(enumFinding.insight);
  });

  it('flags nothing against the 4.14 CRD', () => {
    const out = statusWriteRejection.detect(
      makeSnapshot({ clusterversions: [realCv], customresourcedefinitions: [crd('4.14')] }),
      ctx,
    );
    expect(out).toStrictEqual({ findings: [], samples: { rejectedValues: 0, staleSeconds: null } });
  });
});

describe('statusWriteRejection — corroboration and variants', () => {
  const frozen = (): KubeObject =>
    makeClusterVersion({
      desired: '4.13.21',
      generation: 5,
      observedGeneration: 4,
      history: [
        { version: '4.13.21', state: 'Partial' },
        { version: '4.14.1', state: 'Completed' },
      ],
      enabledCapabilities: ['openshift-samples', 'MachineAPI'],
      managedFields: [
        {
          manager: 'cluster-version-operator',
          operation: 'Update',
          subresource: 'status',
          time: '2023-11-03T17:00:00Z',
        },
        { manager: 'oc', operation: 'Update', time: '2023-11-03T17:30:00Z' },
      ],
    });

  it('adds CVO log lines, the generation lag and staleness from managedFields', () => {
    const snapshot = makeSnapshot(
      { clusterversions: [frozen()], customresourcedefinitions: [crd('4.13')] },
      {
        logs: [
          {
            ref: CVO_POD,
            container: 'cluster-version-operator',
            lines: ['I1103 17:40:00 sync_worker.go:1] ok', CVO_LOG],
          },
        ],
      },
    );
    const [f] = statusWriteRejection.detect(snapshot, ctx).findings;
    // Observed, so stated as a fact, with the onset at the last accepted write — no count in the title.
    expect(f.title).toBe('ClusterVersion status writes are being rejected');
    expect(f.basis).toBeUndefined();
    expect(f.since).toBe('2023-11-03T17:00:00Z');
    expect(f.summary).toContain(
      'The CVO log already shows 1 rejected write(s). No status write by the CVO for 60 min. ' +
        'status.observedGeneration 4 < metadata.generation 5.',
    );
    expect(f.evidence.slice(3)).toStrictEqual([
      {
        kind: 'log',
        label: 'CVO status writes rejected',
        ref: CVO_POD,
        container: 'cluster-version-operator',
        lines: [CVO_LOG],
      },
      {
        kind: 'field',
        label: 'Spec generation 5 not observed',
        ref: expect.objectContaining({ kind: 'ClusterVersion' }),
        path: 'status.observedGeneration',
        value: 4,
      },
      {
        kind: 'field',
        label: 'Last CVO status write (stale)',
        ref: expect.objectContaining({ kind: 'ClusterVersion' }),
        path: 'metadata.managedFields[manager=cluster-version-operator,subresource=status].time',
        value: '2023-11-03T17:00:00Z',
      },
    ]);
    expect(statusWriteRejection.detect(snapshot, ctx).samples).toStrictEqual({ rejectedValues: 1, staleSeconds: 3600 });
  });

  it.each([
    ['TechPreviewNoUpgrade', []],
    ['', ['ClusterAPI']],
    [undefined, ['ClusterAPI']],
  ])('picks the CRD variant of featureSet %j', (featureSet, expected) => {
    const cv = makeClusterVersion({ desired: '4.22.0', history: [], enabledCapabilities: ['Console', 'ClusterAPI'] });
    const fg: KubeObject = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'FeatureGate',
      metadata: { name: 'cluster' },
      spec: featureSet === undefined ? {} : { featureSet },
    };
    const crds = [crd('variants/master-TechPreviewNoUpgrade'), crd('master'), crd('variants/master-OKD')];
    const { findings } = statusWriteRejection.detect(
      makeSnapshot({ clusterversions: [cv], featuregates: [fg], customresourcedefinitions: crds }),
      ctx,
    );
    expect(findings.flatMap((f) => f.evidence[0].value)).toStrictEqual(expected);
  });

  it('warns when the CVO logs rejections no capability explains', () => {
    const cv = makeClusterVersion({ desired: '4.14.1', history: [], enabledCapabilities: ['Console'] });
    const snapshot = makeSnapshot(
      { clusterversions: [cv], customresourcedefinitions: [crd('4.14')] },
      { logs: [{ ref: CVO_POD, container: 'cluster-version-operator', lines: [CVO_LOG] }] },
    );
    expect(statusWriteRejection.detect(snapshot, ctx).findings.map((f) => [f.id, f.severity])).toStrictEqual([
      ['status-write-rejection:ClusterVersion//version:rejected', 'warning'],
    ]);
  });

  it('warns on a stale, lagging status and falls back to observed transitions without managedFields', () => {
    const cv = makeClusterVersion({ desired: '4.14.1', history: [], generation: 7, observedGeneration: 6 });
    const transitions = [
      {
        ref: { kind: 'ClusterVersion', name: 'version' },
        type: 'Progressing',
        status: 'True',
        at: '2023-11-03T17:30:00Z',
      },
    ];
    const out = statusWriteRejection.detect(makeSnapshot({ clusterversions: [cv] }, { transitions }), ctx);
    expect(out.samples).toStrictEqual({ rejectedValues: null, staleSeconds: 1800 });
    expect(out.findings.map((f) => [f.id, f.severity, f.since])).toStrictEqual([
      ['status-write-rejection:ClusterVersion//version:stale', 'warning', '2023-11-03T17:30:00Z'],
    ]);
  });

  it('stays quiet without a ClusterVersion', () => {
    expect(statusWriteRejection.detect(makeSnapshot(), ctx)).toStrictEqual({
      findings: [],
      samples: { rejectedValues: null, staleSeconds: null },
    });
  });
});

describe('predictRejection', () => {
  const enabled = ['openshift-samples', 'baremetal', 'MachineAPI', 'Build', 'OperatorLifecycleManagerV1'];
  it.each([
    ['4.13.9', '4.13', ['MachineAPI', 'Build', 'OperatorLifecycleManagerV1']],
    ['4.17.0', '4.17', ['OperatorLifecycleManagerV1']],
    ['4.18.3', '4.18', []],
  ])('rollback to %s', (target, release, rejected) => {
    const p = predictRejection(enabled, target);
    expect([p.targetRelease, p.newerThanKnown, p.rejected]).toStrictEqual([release, false, rejected]);
    expect(p.message === null).toBe(rejected.length === 0);
  });

  it('prints the exact API server message for one rejected value', () => {
    expect(predictRejection(['openshift-samples', 'NodeTuning'], '4.12.0').message).toBe(
      'ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.enabledCapabilities[1]: Unsupported value: "NodeTuning": ' +
        'supported values: "openshift-samples", "baremetal", "marketplace", "Console", "Insights", "Storage", "CSISnapshot"',
    );
  });

  it('flags targets beyond the table and unknown ones', () => {
    expect(predictRejection(enabled, '4.30.0')).toMatchObject({
      targetRelease: 'master',
      newerThanKnown: true,
      rejected: [],
    });
    expect(predictRejection(enabled, '4.10.0')).toStrictEqual({
      targetVersion: '4.10.0',
      newerThanKnown: false,
      rejected: [],
      supported: null,
      message: null,
    });
  });
});

describe('predicting failure B before a rollback', () => {
  it('warns that a rollback to the previous minor would freeze status, while the 4.14 CRD accepts everything', () => {
    const cv = structuredClone(
      load(readFileSync('server/fixtures/oc-upgrade/status/4.14.1-degraded-cv.yaml', 'utf8')) as KubeObject,
    );
    const status = cv.status as {
      history: { version: string; state: string; image: string }[];
      desired: { version: string };
    };
    status.desired.version = '4.14.1';
    status.history = [
      { version: '4.14.1', state: 'Completed', image: 'quay.io/openshift-release-dev/ocp-release@sha256:aaa' },
      { version: '4.13.40', state: 'Completed', image: 'quay.io/openshift-release-dev/ocp-release@sha256:bbb' },
    ];
    const crd = load(readFileSync('server/fixtures/openshift-api/crds/clusterversion/4.14.yaml', 'utf8')) as KubeObject;
    const result = statusWriteRejection.detect(
      { objects: { clusterversions: [cv], customresourcedefinitions: [crd] }, transitions: [], logs: [], probes: [] },
      makeContext('2024-02-08T00:00:00Z'),
    );
    expect(result.findings.map((finding) => [finding.id, finding.severity, finding.basis])).toEqual([
      ['status-write-rejection:ClusterVersion//version:rollback-4.13.40', 'info', 'predicted'],
    ]);
    const rejected = result.findings[0].evidence[0].value as string[];
    expect([...rejected].sort()).toEqual(['Build', 'DeploymentConfig', 'ImageRegistry', 'MachineAPI']);
  });
});
