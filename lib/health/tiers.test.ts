import { describe, expect, it } from 'vitest';
import { DETECTORS, requiredLogs, requiredResources } from '@/lib/health/registry';
import { activityDto, needTier, nextActivity, tieredResources, type ActivityState } from '@/lib/health/tiers';

const MINUTE = 60_000;

describe('tiers of the detectors’ sources', () => {
  it('puts cluster-wide pods on the active tier and everything narrower or smaller on the always tier', () => {
    expect(needTier({ resource: 'pods' })).toBe('active');
    expect(needTier({ resource: 'pods', namespace: 'openshift-catalogd' })).toBe('always');
    expect(needTier({ resource: 'clusterversions', name: 'version' })).toBe('always');
    expect(needTier({ resource: 'machineconfigpools' })).toBe('always');
    expect(needTier({ resource: 'nodes', tier: 'active' })).toBe('active');
  });

  it('keeps every need of the registry on exactly one tier, the catalog namespaces’ pods watched while idle', () => {
    const { always, active } = tieredResources(DETECTORS);
    expect(active).toStrictEqual([{ resource: 'pods' }]);
    const catalogPods = always.filter((need) => need.resource === 'pods');
    expect(catalogPods.length).toBeGreaterThan(0);
    expect(catalogPods.every((need) => need.namespace !== undefined)).toBe(true);
    // Everything the registry watches is watched on one tier or the other.
    for (const need of requiredResources(DETECTORS)) {
      expect([...always, ...active].some((kept) => kept.resource === need.resource)).toBe(true);
    }
    expect(requiredLogs(DETECTORS).length).toBeGreaterThan(0);
  });
});

describe('activity and its hold-down', () => {
  const idle: ActivityState = { tier: 'always', since: 0, reasons: [] };

  it('turns active on any reason, at once', () => {
    expect(nextActivity(idle, ['finding'], 5 * MINUTE).tier).toBe('active');
    expect(nextActivity(idle, ['viewed'], 5 * MINUTE).since).toBe(5 * MINUTE);
    expect(nextActivity(idle, [], 5 * MINUTE)).toStrictEqual(idle);
  });

  it('stays active for the hold-down after the last reason, then goes idle', () => {
    const active = nextActivity(idle, ['updating'], 0, 10 * MINUTE);
    const held = nextActivity(active, [], 9 * MINUTE, 10 * MINUTE);
    expect(held.tier).toBe('active');
    expect(activityDto(held, 10 * MINUTE).holdUntil).toBe(new Date(10 * MINUTE).toISOString());
    const again = nextActivity(held, ['viewed'], 9.5 * MINUTE, 10 * MINUTE);
    expect(nextActivity(again, [], 19 * MINUTE, 10 * MINUTE).tier).toBe('active');
    const gone = nextActivity(again, [], 19.5 * MINUTE, 10 * MINUTE);
    expect(gone.tier).toBe('always');
    expect(gone.since).toBe(19.5 * MINUTE);
    expect(activityDto(gone).waiting.length).toBeGreaterThan(0);
    expect(activityDto(active).waiting).toStrictEqual([]);
  });
});
