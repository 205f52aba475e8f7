import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { fixture, rollbackContext } from '@/server/testing/rollback-fixtures';
import { checkCvoRules } from './check-cvo-rules';
import { previousEntry } from './rollback-context';

const cv = (name: string): KubeObject => fixture(`oc-upgrade/status/${name}-cv.yaml`);
const snap = (object: KubeObject) => makeSnapshot({ clusterversions: [object] });

/** The real paused-worker-pool capture once its update finished: history[0] Completed, Progressing=False. */
function settled(): KubeObject {
  const object = structuredClone(cv('4.14.1-paused-worker-pool'));
  const status = object.status as { history: { state: string }[]; conditions: { type: string; status: string }[] };
  status.history[0].state = 'Completed';
  for (const c of status.conditions) if (c.type === 'Progressing') c.status = 'False';
  return object;
}

describe('checkCvoRules (real ClusterVersion captures)', () => {
  it('picks the previous entry like the CVO precondition: first entry differing from status.desired', () => {
    expect(previousEntry(cv('4.14.1-degraded'))?.version).toBe('4.14.0-rc.3');
    expect(previousEntry(cv('4.15.0-ec2-early'))?.version).toBe('4.14.1');
    expect(previousEntry(cv('not-upgrading'))).toBeUndefined();
  });

  it('passes the previous z-stream entry once Progressing=False', () => {
    const result = checkCvoRules(rollbackContext(snap(settled()), '4.14.0'));
    expect(result.status).toBe('pass');
    expect(result.title).toBe('4.14.0 is the previous version in the same minor');
  });

  it('blocks the previous entry while an update is Progressing=True', () => {
    const result = checkCvoRules(rollbackContext(snap(cv('4.14.1-degraded')), '4.14.0-rc.3'));
    expect(result.status).toBe('block');
    expect(result.detail).toContain('Progressing=True');
  });

  it('blocks any lower version that is not the previous entry, with the CVO message', () => {
    const result = checkCvoRules(rollbackContext(snap(cv('not-upgrading')), '4.14.0'));
    expect(result.status).toBe('block');
    expect(result.detail).toContain(
      "4.14.0 is less than the current target 4.14.1, and the only supported rollback is to the cluster's previous version",
    );
  });

  it('blocks a cross-minor previous entry unless the risk is accepted, then warns', () => {
    const object = cv('4.16.0-compact');
    const blocked = checkCvoRules(rollbackContext(snap(object), '4.16.0-0.nightly-2024-08-01-082745'));
    expect(blocked).toMatchObject({
      status: 'block',
      title: 'Cross-minor rollback 4.17.0-ec.0 → 4.16.0-0.nightly-2024-08-01-082745 is not supported',
    });
    expect(blocked.detail).toContain('rollbacks that change major or minor versions are not supported');
    const accepted = checkCvoRules(
      rollbackContext(snap(object), '4.16.0-0.nightly-2024-08-01-082745', { acceptCrossMinorRisk: true }),
    );
    expect(accepted.status).toBe('warn');
  });

  it('treats the desired version as already requested and a newer version as a roll forward', () => {
    expect(checkCvoRules(rollbackContext(snap(cv('not-upgrading')), '4.14.1')).status).toBe('pass');
    expect(checkCvoRules(rollbackContext(snap(cv('not-upgrading')), '4.14.2')).status).toBe('warn');
    expect(checkCvoRules(rollbackContext(makeSnapshot({}), '4.14.2')).status).toBe('block');
  });
});
