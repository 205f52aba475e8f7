import { describe, expect, it } from 'vitest';
import type { ObjectRef } from '@/lib/k8s/types';
import type { ConditionTransition } from '@/lib/health/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { fixture, rollbackContext, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import { checkInstalls } from './check-installs';

const cv = fixture('oc-upgrade/status/not-upgrading-cv.yaml');
const CE: ObjectRef = { apiVersion: 'olm.operatorframework.io/v1', kind: 'ClusterExtension', name: 'argocd' };
const ROOT =
  'failed to install release: Deployment.apps "argocd-operator-controller-manager" is invalid: spec.template.spec.containers[0].image: Required value';
const TERMINATING =
  'failed to install release: unable to create new content in namespace argocd because it is being terminated';
const at = (s: number): string => new Date(Date.parse('2026-01-01T00:00:00Z') - 600_000 + s * 1000).toISOString();
const attempt = (s: number, message: string): ConditionTransition[] => [
  { ref: CE, type: 'Installed', status: 'False', reason: 'Failed', message, at: at(s) },
  { ref: CE, type: 'Progressing', status: 'True', reason: 'Retrying', message, at: at(s) },
];

describe('checkInstalls', () => {
  it('blocks on a ClusterExtension whose root cause hides behind transient cleanup errors', () => {
    const transitions = [0, 10, 30, 70, 150, 298].flatMap((s) => [
      ...attempt(s, ROOT),
      ...attempt(s + 1, TERMINATING),
      ...attempt(s + 2, TERMINATING),
    ]);
    const result = checkInstalls(
      rollbackContext(makeSnapshot({ clusterversions: [cv] }, { transitions }), '4.14.0', { now: Date.parse(at(300)) }),
    );
    expect(result.status).toBe('block');
    expect(result.title).toBe('1 install(s) not settled: ClusterExtension argocd');
    expect(result.evidence[0].value).toBe(ROOT);
  });

  it('warns on a ClusterExtension the simulator keeps Retrying (extension-install-flap objects)', () => {
    const { snapshot, now } = scenarioSnapshot('extension-install-flap', 10 * 60_000);
    const result = checkInstalls(rollbackContext(snapshot, '4.14.0', { now }));
    expect(['warn', 'block']).toContain(result.status);
    expect(result.title).toMatch(/ClusterExtension/);
  });

  it('passes a cluster with nothing in flight', () => {
    const { snapshot, now } = scenarioSnapshot('steady', 60_000);
    expect(checkInstalls(rollbackContext(snapshot, '4.16.0', { now })).status).toBe('pass');
  });
});
