import { describe, expect, it } from 'vitest';
import { makeClusterVersion, makeSnapshot } from '@/lib/health/testing/builders';
import { fixture, rollbackContext } from '@/server/testing/rollback-fixtures';
import { checkFeatureGate } from './check-featuregate';

/** HyperShift's control-plane operator test data: a FeatureGate that records only 4.19.0-ec.4. */
const hostedGate = fixture('hypershift/featuregate/cpo-testdata-feature-gate-4.19.0-ec.4-Default.json');
const cv = makeClusterVersion({
  desired: '4.19.0-ec.4',
  history: [
    { version: '4.19.0-ec.4', state: 'Completed' },
    { version: '4.19.0-ec.3', state: 'Completed' },
  ],
});

describe('checkFeatureGate (HyperShift FeatureGate test data)', () => {
  it('passes a target the FeatureGate records', () => {
    expect(
      checkFeatureGate(
        rollbackContext(makeSnapshot({ clusterversions: [cv], featuregates: [hostedGate] }), '4.19.0-ec.4'),
      ).status,
    ).toBe('pass');
  });

  it('blocks a history version the FeatureGate dropped, quoting the crash-loop message', () => {
    const result = checkFeatureGate(
      rollbackContext(makeSnapshot({ clusterversions: [cv], featuregates: [hostedGate] }), '4.19.0-ec.3'),
    );
    expect(result.status).toBe('block');
    expect(result.detail).toContain(
      'missing desired version "4.19.0-ec.3" in featuregates.config.openshift.io/cluster',
    );
    expect(result.evidence[0].value).toStrictEqual(['4.19.0-ec.4']);
  });

  it('warns for a never-installed target and for an unseen FeatureGate; passes when no versions are recorded', () => {
    expect(
      checkFeatureGate(
        rollbackContext(makeSnapshot({ clusterversions: [cv], featuregates: [hostedGate] }), '4.19.0-ec.1'),
      ).status,
    ).toBe('warn');
    expect(checkFeatureGate(rollbackContext(makeSnapshot({ clusterversions: [cv] }), '4.19.0-ec.3')).status).toBe(
      'warn',
    );
    const pre414 = { ...hostedGate, status: { featureGates: [{ enabled: [], disabled: [] }] } };
    expect(
      checkFeatureGate(rollbackContext(makeSnapshot({ clusterversions: [cv], featuregates: [pre414] }), '4.19.0-ec.3'))
        .status,
    ).toBe('pass');
  });
});
