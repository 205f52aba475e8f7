import { describe, expect, it } from 'vitest';
import type { ObjectRef } from '@/lib/k8s/types';
import type { ConditionTransition } from '@/lib/health/types';
import { installSettling } from '@/lib/health/detectors/install-settling/install-settling';
import { analyzeStreak, isFailure, transientLabel } from '@/lib/health/detectors/install-settling/condition-streaks';
import { makeContext, makeSnapshot } from '@/lib/health/testing/builders';

const NOW = '2025-04-01T10:05:00Z';
const ctx = makeContext(NOW);
const CE: ObjectRef = { apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', name: 'argocd' };
const at = (seconds: number): string => new Date(Date.parse('2025-04-01T10:00:00Z') + seconds * 1000).toISOString();

// Messages shaped on operator-controller: Progressing carries the retryable error (reason Retrying),
// Installed=False (reason Failed) while no bundle is installed.
const ROOT =
  'failed to install release: 1 error occurred:\n\t* Deployment.apps "argocd-operator-controller-manager" is invalid: ' +
  'spec.template.spec.containers[0].image: Required value';
const TERMINATING =
  'failed to install release: unable to create new content in namespace argocd because it is being terminated';
const CONFLICT =
  'Operation cannot be fulfilled on clusterextensions.olm.operatorframework.io "argocd": the object has been ' +
  'modified; please apply your changes to the latest version and try again';

function attempt(seconds: number, message: string): ConditionTransition[] {
  return [
    { ref: CE, type: 'Installed', status: 'False', reason: 'Failed', message, at: at(seconds) },
    { ref: CE, type: 'Progressing', status: 'True', reason: 'Retrying', message, at: at(seconds) },
  ];
}

/** 3 reconciles per backoff step: the real failure, then two transient cleanup errors within a second or two. */
function flap(steps: number[]): ConditionTransition[] {
  return steps.flatMap((s) => [...attempt(s, ROOT), ...attempt(s + 1, TERMINATING), ...attempt(s + 2, CONFLICT)]);
}

describe('installSettling', () => {
  it('keeps the root cause beside the transient latest message and flags the immediate requeue', () => {
    const transitions = [
      { ref: CE, type: 'Installed', status: 'Unknown', reason: 'Failed', message: 'waiting for install', at: at(-60) },
      ...flap([0, 10, 30, 70, 150, 298]),
    ];
    const out = installSettling.detect(makeSnapshot({}, { transitions }), ctx);
    expect(out.samples).toStrictEqual({ streakLength: 18, statusChangesLastMinute: 3 });
    expect(out.findings).toStrictEqual([
      {
        id: 'install-settling:ClusterExtension//argocd:streak',
        detector: 'install-settling',
        severity: 'critical',
        subject: CE,
        title: 'ClusterExtension argocd: root cause hidden behind a transient error',
        summary:
          `18 failed attempts in a row; failing since ${at(0)}. Root cause: Progressing=True (Retrying): "${ROOT}". ` +
          `Latest: Progressing=True (Retrying): "${CONFLICT}". The condition now shows only the transient "update conflict" ` +
          'error, which is not actionable. Status changes come in bursts within 5 s (6 bursts, 3.0 reconciles each): each ' +
          'status write requeues the object at once instead of waiting for the backoff.',
        evidence: [
          {
            kind: 'condition',
            label: 'Root cause (first non-transient failure)',
            ref: CE,
            path: 'status.conditions[type=Progressing]',
            value: ROOT,
            at: at(0),
          },
          {
            kind: 'condition',
            label: 'Latest message (transient: update conflict)',
            ref: CE,
            path: 'status.conditions[type=Progressing]',
            value: CONFLICT,
            at: at(300),
          },
          { kind: 'metric', label: 'Failed attempts in the streak', value: 18 },
          { kind: 'metric', label: 'Status changes in the last minute', value: 3 },
          { kind: 'metric', label: 'Immediate-requeue bursts (writes ≤ 5 s apart)', value: 6 },
        ],
        remediation: [
          { title: 'Read the current conditions', command: 'oc get clusterextension argocd -o yaml' },
          {
            title: 'Find every attempt in the operator-controller log (the root cause is the first error)',
            command:
              "oc -n openshift-operator-controller logs deploy/operator-controller-controller-manager -c manager | grep 'argocd'",
          },
          {
            title:
              'Fix the root cause shown in this finding, not the latest (transient) message; the retries then settle',
          },
        ],
        since: at(0),
      },
    ]);
  });

  it('warns on a plain failing streak with the same message and normal backoff', () => {
    const transitions = [...attempt(0, ROOT), ...attempt(20, `${ROOT} `), ...attempt(60, ROOT)];
    const [f] = installSettling.detect(makeSnapshot({}, { transitions }), ctx).findings;
    expect([f.severity, f.title]).toStrictEqual(['warning', 'ClusterExtension argocd keeps failing']);
    expect(f.summary).not.toContain('bursts');
  });

  it.each([
    [
      'settled after the failures',
      [
        ...flap([0, 10]),
        {
          ref: CE,
          type: 'Installed',
          status: 'True',
          reason: 'Succeeded',
          message: 'Installed bundle argocd-operator.v0.6.0 successfully',
          at: at(40),
        },
        {
          ref: CE,
          type: 'Progressing',
          status: 'True',
          reason: 'Succeeded',
          message: 'desired state reached',
          at: at(40),
        },
      ],
    ],
    ['a single failed attempt', attempt(0, ROOT)],
    [
      'blocked once (terminal, needs a human, not a loop)',
      [
        {
          ref: CE,
          type: 'Progressing',
          status: 'False',
          reason: 'Blocked',
          message: 'bundle requires a watch namespace',
          at: at(0),
        },
      ],
    ],
    [
      'only deprecation changes',
      [
        {
          ref: CE,
          type: 'Deprecated',
          status: 'True',
          reason: 'Deprecated',
          message: 'package argocd is deprecated',
          at: at(0),
        },
        {
          ref: CE,
          type: 'PackageDeprecated',
          status: 'True',
          reason: 'Deprecated',
          message: 'package argocd is deprecated',
          at: at(10),
        },
      ],
    ],
  ])('no finding when %s', (_, transitions) => {
    expect(installSettling.detect(makeSnapshot({}, { transitions }), ctx).findings).toStrictEqual([]);
  });

  it('applies to ClusterOperators, ClusterCatalogs and BundleDeployments, not to ClusterVersion', () => {
    const co: ObjectRef = { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', name: 'olm' };
    const catalog: ObjectRef = {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      name: 'openshift-redhat-operators',
    };
    const bd: ObjectRef = { apiVersion: 'core.rukpak.io/v1alpha2', kind: 'BundleDeployment', name: 'argocd' };
    const cv: ObjectRef = { apiVersion: 'config.openshift.io/v1', kind: 'ClusterVersion', name: 'version' };
    const transitions: ConditionTransition[] = [
      {
        ref: co,
        type: 'Degraded',
        status: 'True',
        reason: 'CatalogdDeploymentCatalogdControllerManager_SyncError',
        message: 'connection refused',
        at: at(0),
      },
      {
        ref: co,
        type: 'Degraded',
        status: 'True',
        reason: 'CatalogdDeploymentCatalogdControllerManager_SyncError',
        message: 'context deadline exceeded',
        at: at(30),
      },
      {
        ref: catalog,
        type: 'Progressing',
        status: 'True',
        reason: 'Retrying',
        message:
          'source catalog content: error creating image source: pinging container registry registry.redhat.io: Get "https://registry.redhat.io/v2/": dial tcp: lookup registry.redhat.io: no such host',
        at: at(0),
      },
      {
        ref: catalog,
        type: 'Progressing',
        status: 'True',
        reason: 'Retrying',
        message:
          'source catalog content: error creating image source: pinging container registry registry.redhat.io: Get "https://registry.redhat.io/v2/": dial tcp: lookup registry.redhat.io: no such host ',
        at: at(60),
      },
      {
        ref: bd,
        type: 'Installed',
        status: 'False',
        reason: 'InstallFailed',
        message: 'rendering bundle: unsupported install mode',
        at: at(0),
      },
      {
        ref: bd,
        type: 'Installed',
        status: 'False',
        reason: 'InstallFailed',
        message: 'error deleting stale resources: configmaps "argocd-cm" not found',
        at: at(1),
      },
      { ref: cv, type: 'Failing', status: 'True', reason: 'ClusterOperatorDegraded', message: 'x', at: at(0) },
      { ref: cv, type: 'Failing', status: 'True', reason: 'ClusterOperatorDegraded', message: 'y', at: at(10) },
    ];
    const out = installSettling.detect(makeSnapshot({}, { transitions }), ctx);
    expect(out.findings.map((f) => [f.id, f.severity])).toStrictEqual([
      ['install-settling:BundleDeployment//argocd:streak', 'critical'],
      ['install-settling:ClusterCatalog//openshift-redhat-operators:streak', 'warning'],
      // Both messages are transient: no root cause is being hidden.
      ['install-settling:ClusterOperator//olm:streak', 'warning'],
    ]);
  });
});

describe('the root cause of an episode', () => {
  const reset = (seconds: number): ConditionTransition[] => [
    { ref: CE, type: 'Installed', status: 'Unknown', reason: 'Absent', message: 'rolled back', at: at(seconds) },
    { ref: CE, type: 'Progressing', status: 'True', reason: 'Succeeded', message: 'rolled back', at: at(seconds) },
  ];

  it('keeps the first non-transient failure across a streak reset (the new streak sees only transients)', () => {
    const transitions = [
      ...attempt(0, ROOT),
      ...attempt(1, TERMINATING),
      ...reset(2),
      ...attempt(40, TERMINATING),
      ...attempt(41, CONFLICT),
      ...attempt(80, TERMINATING),
    ];
    const [f] = installSettling.detect(makeSnapshot({}, { transitions }), ctx).findings;
    expect(f.severity).toBe('critical');
    expect(f.evidence[0]).toMatchObject({ label: 'Root cause (first non-transient failure)', value: ROOT, at: at(0) });
    expect(f.since).toBe(at(0));
  });

  it('skips transient messages at the head of the retained history: the root cause is the first real error', () => {
    // The history lost the episode's first attempt: it starts on a requeue that hit cleanup.
    const transitions = [...attempt(1, TERMINATING), ...attempt(2, CONFLICT), ...flap([10, 30, 70])];
    const [f] = installSettling.detect(makeSnapshot({}, { transitions }), ctx).findings;
    expect(f.evidence[0]).toMatchObject({ value: ROOT, at: at(10) });
    expect(f.summary).toContain(`Root cause: Progressing=True (Retrying): "${ROOT}"`);
    expect(f.since).toBe(at(1));
  });

  it('starts a new episode after the object settled for longer than the settle window', () => {
    const other = 'failed to install release: image pull failed: manifest unknown';
    const transitions = [...attempt(0, ROOT), ...reset(2), ...attempt(1_000, other), ...attempt(1_001, TERMINATING)];
    const [f] = installSettling.detect(makeSnapshot({}, { transitions }), makeContext(at(1_010))).findings;
    expect(f.evidence[0]).toMatchObject({ value: other, at: at(1_000) });
    expect(f.since).toBe(at(1_000));
  });

  it('falls back to the first failure when every message is transient', () => {
    const transitions = [...attempt(0, TERMINATING), ...attempt(1, CONFLICT), ...attempt(2, TERMINATING)];
    const [f] = installSettling.detect(makeSnapshot({}, { transitions }), ctx).findings;
    expect([f.severity, f.evidence[0].value]).toStrictEqual(['warning', TERMINATING]);
  });
});

describe('condition-streaks helpers', () => {
  it.each([
    ['namespace "argocd" is being terminated', 'namespace being terminated'],
    [CONFLICT, 'update conflict'],
    ['dial tcp 172.30.0.1:443: connect: connection refused', 'connection refused'],
    ['context deadline exceeded', 'context deadline exceeded'],
    ['error cleaning up: secrets "x" not found', 'not found during cleanup'],
    ['clusterroles.rbac.authorization.k8s.io "argocd-operator.v0.6.0" not found', undefined],
    [ROOT, undefined],
  ])('transientLabel(%j) = %j', (message, label) => {
    expect(transientLabel(message)).toBe(label);
  });

  it.each([
    [{ type: 'Progressing', status: 'True', reason: 'Succeeded' }, false],
    [{ type: 'Progressing', status: 'True', reason: 'Retrying' }, true],
    [{ type: 'Progressing', status: 'False', reason: 'Blocked' }, true],
    [{ type: 'Installed', status: 'False', reason: 'Failed' }, true],
    [{ type: 'Installed', status: 'True', reason: 'Succeeded' }, false],
    [{ type: 'Serving', status: 'False', reason: 'UserSpecifiedUnavailable' }, false],
    [{ type: 'BundleDeprecated', status: 'True', reason: 'Deprecated' }, false],
  ])('isFailure(%j) = %s', (t, expected) => {
    expect(isFailure(t)).toBe(expected);
  });

  it('counts a status write once even when it changes several conditions', () => {
    const a = analyzeStreak(CE, flap([0]));
    expect([a.active, a.streakLength, a.writes.length, a.requeueBursts, a.writesPerBurst]).toStrictEqual([
      true,
      3,
      3,
      1,
      3,
    ]);
  });
});

describe('operator-controller log evidence', () => {
  it('adds the newest reconcile errors about the extension, and nothing about other objects', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'openshift-operator-controller',
      name: 'operator-controller-controller-manager-7c9-x2',
    };
    const line = (n: number, name: string) =>
      `2025-04-01T10:0${n}:00.000Z\tERROR\tReconciler error\t{"controller":"clusterextension","name":"${name}","error":"attempt ${n}"}`;
    const logs = [
      {
        ref: pod,
        container: 'manager',
        lines: [line(0, 'argocd'), line(1, 'other'), line(2, 'argocd'), line(3, 'argocd-not-this')],
      },
    ];
    const [finding] = installSettling.detect(makeSnapshot({}, { transitions: flap([0, 10, 30]), logs }), ctx).findings;
    expect(finding.evidence.at(-1)).toStrictEqual({
      kind: 'log',
      label: 'operator-controller reconcile errors',
      ref: pod,
      container: 'manager',
      lines: [line(0, 'argocd'), line(2, 'argocd')],
    });
  });
});

describe('object evidence', () => {
  it('shows what was being installed: the extension spec and metadata, trimmed', () => {
    const extension = {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: 'argocd', generation: 2, labels: { team: 'gitops' }, uid: 'u1', resourceVersion: '9' },
      spec: { namespace: 'argocd', source: { sourceType: 'Catalog', catalog: { packageName: 'argocd-operator' } } },
    };
    const [finding] = installSettling.detect(
      makeSnapshot({ clusterextensions: [extension] }, { transitions: flap([0, 10, 30]) }),
      ctx,
    ).findings;
    expect(finding.evidence.at(-1)).toStrictEqual({
      kind: 'object',
      label: 'ClusterExtension argocd',
      ref: CE,
      excerpt: {
        metadata: {
          name: 'argocd',
          namespace: undefined,
          labels: { team: 'gitops' },
          annotations: undefined,
          generation: 2,
        },
        spec: extension.spec,
      },
    });
  });
});

describe('Helm adoption conflicts', () => {
  it('are a root cause, not a transient "already exists": the transient latest message hides them (critical)', () => {
    const helm =
      'failed to install release: rendered manifests contain a resource that already exists. Unable to continue with install: ' +
      'ClusterRole "argocd-operator-metrics-reader" in namespace "" exists and cannot be imported into the current release';
    expect(transientLabel(helm)).toBeUndefined();
    expect(transientLabel('configmaps "x" already exists')).toBe('already exists during re-create');
    const transitions = [0, 10, 30].flatMap((s) => [...attempt(s, helm), ...attempt(s + 1, TERMINATING)]);
    const [finding] = installSettling.detect(makeSnapshot({}, { transitions }), ctx).findings;
    expect(finding.severity).toBe('critical');
  });
});
