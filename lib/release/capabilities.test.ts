import { describe, expect, it } from 'vitest';
import { capabilityEnumFor, rejectedCapabilities, releaseForVersion } from '@/lib/release/capabilities';

describe('releaseForVersion', () => {
  it.each([
    ['4.14.1', { release: '4.14', newerThanKnown: false }],
    ['4.15.0-ec.2', { release: '4.15', newerThanKnown: false }],
    ['4.21', { release: '4.21', newerThanKnown: false }],
    ['master', { release: 'master', newerThanKnown: false }],
    ['4.22.0', { release: 'master', newerThanKnown: true }],
    ['5.0.0', { release: 'master', newerThanKnown: true }],
  ])('%s → %j', (input, expected) => {
    expect(releaseForVersion(input)).toStrictEqual(expected);
  });

  it.each(['4.10.3', 'latest', ''])('%j has no release', (input) => {
    expect(releaseForVersion(input)).toBeUndefined();
  });
});

describe('capabilityEnumFor', () => {
  it('returns the 4.13 CRD enums for a 4.13 version', () => {
    const entry = capabilityEnumFor('4.13.9');
    expect(entry?.release).toBe('4.13');
    expect(entry?.enabledCapabilities).toStrictEqual([
      'openshift-samples',
      'baremetal',
      'marketplace',
      'Console',
      'Insights',
      'Storage',
      'CSISnapshot',
      'NodeTuning',
    ]);
  });
});

describe('rejectedCapabilities', () => {
  const enabled414 = [
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
  ];
  it.each([
    // The rollbacks of SPEC §1 B, each against the older release's real CRD.
    ['4.13', enabled414, ['Build', 'DeploymentConfig', 'ImageRegistry', 'MachineAPI']],
    ['4.14', enabled414, []],
    [
      '4.14.5',
      ['OperatorLifecycleManager', 'CloudCredential', 'Build'],
      ['OperatorLifecycleManager', 'CloudCredential'],
    ],
    ['4.15', ['Ingress', 'CloudControllerManager', 'Console'], ['Ingress', 'CloudControllerManager']],
    ['4.17', ['OperatorLifecycleManagerV1', 'Ingress'], ['OperatorLifecycleManagerV1']],
    ['4.18', ['OperatorLifecycleManagerV1'], []],
    ['4.12', ['NodeTuning', 'NodeTuning'], ['NodeTuning']],
  ])('target %s', (target, enabled, expected) => {
    expect(rejectedCapabilities(enabled, target)).toStrictEqual(expected);
  });

  it('is undefined for an unknown target', () => {
    expect(rejectedCapabilities(['Build'], '4.10')).toBeUndefined();
  });
});
