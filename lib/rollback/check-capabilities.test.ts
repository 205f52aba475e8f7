import { describe, expect, it } from 'vitest';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { fixture, rollbackContext } from '@/server/testing/rollback-fixtures';
import { checkCapabilities } from './check-capabilities';

const realCv = fixture('oc-upgrade/status/4.14.1-degraded-cv.yaml');
const snapshot = makeSnapshot({ clusterversions: [realCv] });

describe('checkCapabilities (real 4.14.1 ClusterVersion, generated release enums)', () => {
  it('blocks a 4.13 target naming exactly the four capabilities its CRD lacks', () => {
    const result = checkCapabilities(rollbackContext(snapshot, '4.13.40'));
    expect(result.status).toBe('block');
    const rejected = result.evidence.find((e) => e.label === 'Values the target CRD will reject')?.value as string[];
    expect([...rejected].sort()).toStrictEqual(['Build', 'DeploymentConfig', 'ImageRegistry', 'MachineAPI']);
    expect(result.detail).toContain('the CVO will be unable to write status after the rollback');
    expect(String(result.evidence.at(-1)?.value)).toMatch(
      /^ClusterVersion\.config\.openshift\.io "version" is invalid: /,
    );
  });

  it('passes a z-stream target and a roll forward', () => {
    expect(checkCapabilities(rollbackContext(snapshot, '4.14.0')).status).toBe('pass');
    expect(checkCapabilities(rollbackContext(snapshot, '4.16.3')).status).toBe('pass');
  });

  it('uses master for minors newer than the table and warns for releases before capabilities', () => {
    expect(checkCapabilities(rollbackContext(snapshot, '4.99.0')).title).toContain('master');
    expect(checkCapabilities(rollbackContext(snapshot, '4.10.3')).status).toBe('warn');
  });

  it('always compares with the capabilities enabled now (4.16 capture vs the 4.15 CRD)', () => {
    const cv416 = makeSnapshot({ clusterversions: [fixture('oc-upgrade/status/4.16.0-compact-cv.yaml')] });
    const rejected = checkCapabilities(rollbackContext(cv416, '4.15.20')).evidence.find(
      (e) => e.label === 'Values the target CRD will reject',
    )?.value;
    expect(rejected).toStrictEqual(['CloudControllerManager', 'Ingress']);
  });
});
