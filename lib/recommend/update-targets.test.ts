import { describe, expect, it } from 'vitest';
import { updateTargets } from './update-targets';

const image = (n: number) => `quay.io/openshift-release-dev/ocp-release@sha256:${String(n).padStart(64, '0')}`;

const cv = {
  status: {
    availableUpdates: [
      { version: '4.16.30', image: image(1), url: 'https://access.redhat.com/errata/RHBA-2025:1' },
      { version: '4.17.12', image: image(2) },
      { version: 'not-a-version', image: image(9) },
    ],
    conditionalUpdates: [
      {
        release: { version: '4.17.10', image: image(3) },
        risks: [
          { name: 'B', message: 'b', url: 'https://b', matchingRules: [{ type: 'PromQL' }] },
          { name: 'A', message: 'a', url: 'https://a', matchingRules: [{ type: 'Always' }] },
        ],
      },
      {
        release: { version: '4.16.31', image: image(4) },
        risks: [{ name: 'C', message: 'c', url: 'https://c', matchingRules: [{ type: 'PromQL' }] }],
        conditions: [{ type: 'Recommended', status: 'True', reason: 'NotExposedToRisks', message: 'fine' }],
      },
      { release: { version: '4.16.30', image: image(1) }, risks: [] },
    ],
  },
};

describe('updateTargets', () => {
  it('merges conditional and available updates by image, newest first, dropping unparseable versions', () => {
    expect(updateTargets(cv, '4.16.27').map((t) => [t.version, t.conditional])).toEqual([
      ['4.17.12', false],
      ['4.17.10', true],
      ['4.16.31', true],
      ['4.16.30', true],
    ]);
  });

  it("risks without conditions are Recommended=Unknown NoConditions (with oc's empty-name quirk)", () => {
    const target = updateTargets(cv, '4.16.27').find((t) => t.version === '4.17.10');
    expect(target).toMatchObject({ recommended: false, recommendedStatus: 'Unknown', reason: 'NoConditions' });
    expect(target?.message).toBe('Conditional update to 4.17.10 has risks (, , A, B), but no conditions.');
  });

  it('Upgradeable=False becomes a risk of minor updates only, replacing a True Recommended condition', () => {
    const targets = updateTargets(cv, '4.16.27', { reason: 'AdminAckRequired', message: 'ack please' });
    expect(targets.find((t) => t.version === '4.17.12')).toMatchObject({
      recommended: false,
      recommendedStatus: 'False',
      reason: 'AdminAckRequired',
      message: 'ack please',
    });
    expect(targets.find((t) => t.version === '4.17.12')?.risks[0].url).toContain(
      '/4.16/updating/preparing_for_updates/',
    );
    // Risks without conditions get Upgradeable's condition as their only one, as oc appends it.
    expect(targets.find((t) => t.version === '4.17.10')).toMatchObject({
      recommendedStatus: 'False',
      reason: 'AdminAckRequired',
    });
    expect(targets.find((t) => t.version === '4.16.31')?.recommended).toBe(true);
    expect(targets.find((t) => t.version === '4.16.31')).not.toHaveProperty('releaseUrl');
  });

  it('computes the targets of the same update lists once: shared, frozen, each call its own array', () => {
    const other = { spec: { channel: 'x' }, status: { ...cv.status } };
    const first = updateTargets(cv, '4.16.27');
    const second = updateTargets(other, '4.16.27');
    expect(second).not.toBe(first);
    expect(second.every((target, i) => target === first[i])).toBe(true);
    expect(Object.isFrozen(first[0]) && Object.isFrozen(first[0].risks)).toBe(true);
    // Another current version or an Upgradeable=False are other inputs: computed apart, and right for each.
    const acked = updateTargets(cv, '4.16.27', { reason: 'AdminAckRequired', message: 'ack please' });
    expect(acked.find((t) => t.version === '4.17.12')?.recommended).toBe(false);
    expect(updateTargets(cv, '4.16.27').find((t) => t.version === '4.17.12')?.recommended).toBe(true);
    // Equal lists that are not the same objects give equal targets.
    expect(updateTargets(structuredClone(cv), '4.16.27')).toEqual(first);
  });
});
