import { describe, expect, it } from 'vitest';
import type { UpdateStateDto } from '@/lib/api/dto';
import { clusterUpdates, fleetUpdates, nearestRank, updatesCsv, type UpdateSource } from './update-durations';

const H = (hours: number) => new Date(Date.UTC(2026, 10, 20) + hours * 3_600_000).toISOString();
const entry = (version: string, state: string, started: number, completed: number | null) => ({
  version,
  state,
  startedTime: H(started),
  completionTime: completed === null ? null : H(completed),
  image: `quay.io/openshift-release-dev/ocp-release:${version}`,
});

const updating: UpdateStateDto = {
  phase: 'updating-workers',
  label: 'Updating workers to 4.16.9',
  unknownReason: null,
  targetVersion: '4.16.9',
  fromVersion: '4.15.30',
  rollingBack: false,
  installed: false,
  controlPlane: { percent: 100, done: true },
  pools: [{ name: 'worker', updated: 1, total: 3, unknown: 0 }],
  estimate: { remainingSeconds: null, note: '' },
  frozen: null,
};

describe('the updates of one cluster from its ClusterVersion history', () => {
  it('lists every update but the installation, oldest first, with the one still rolling out as ongoing', () => {
    const source: UpdateSource = {
      clusterId: 'a',
      clusterName: 'a',
      // Completed in ClusterVersion, but a pool is still rolling out: the update is not over.
      history: [
        entry('4.16.9', 'Completed', 10, 11),
        entry('4.15.30', 'Completed', 2, 4),
        entry('4.15.1', 'Completed', 0, 1),
      ],
      updateState: updating,
    };
    const spans = clusterUpdates(source, Date.parse(H(12)));
    expect(spans.map((s) => [s.from, s.to, s.ongoing, s.durationSeconds, s.completedAt])).toEqual([
      ['4.15.1', '4.15.30', false, 2 * 3_600, H(4)],
      ['4.15.30', '4.16.9', true, 2 * 3_600, null],
    ]);
    expect(spans[1].phases).toEqual([
      { name: 'control plane', kind: 'control-plane', percent: 100, done: true },
      { name: 'worker', kind: 'pool', percent: 33, done: false },
    ]);
  });

  it('ends an abandoned Partial update where the next one started, and lists nothing for a fresh install', () => {
    const spans = clusterUpdates(
      {
        clusterId: 'b',
        clusterName: 'b',
        history: [
          entry('4.14.3', 'Completed', 5, 6),
          entry('4.14.2', 'Partial', 3, null),
          entry('4.14.1', 'Completed', 0, 1),
        ],
      },
      Date.parse(H(7)),
    );
    expect(spans.map((s) => [s.from, s.to, s.state, s.durationSeconds])).toEqual([
      ['4.14.1', '4.14.2', 'Partial', 2 * 3_600],
      ['4.14.1', '4.14.3', 'Completed', 3_600],
    ]);
    const fresh = { clusterId: 'c', clusterName: 'c', history: [entry('4.16.1', 'Completed', 0, 1)] };
    expect(clusterUpdates(fresh, Date.parse(H(2)))).toEqual([]);
  });
});

describe('the fleet’s durations per from→to', () => {
  it('counts clusters, takes nearest-rank p50/p95 of completed updates, and flags what is slower than p95', () => {
    expect(nearestRank([], 0.5)).toBeNull();
    expect(nearestRank([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(nearestRank([5, 1, 3, 2, 4], 0.95)).toBe(5);
    const done = (id: string, hours: number) => ({
      clusterId: id,
      clusterName: id,
      history: [entry('4.16.9', 'Completed', 10, 10 + hours), entry('4.15.30', 'Completed', 0, 1)],
    });
    const sources = [done('a', 1), done('b', 2), done('c', 3), done('d', 4)];
    const ongoing = {
      clusterId: 'e',
      clusterName: 'e',
      history: [entry('4.16.9', 'Partial', 10, null), entry('4.15.30', 'Completed', 0, 1)],
    };
    const now = Date.parse(H(15));
    const spans = [...sources, ongoing].flatMap((source) => clusterUpdates(source, now));
    const fleet = fleetUpdates(
      spans,
      (span) =>
        span.clusterId === 'e'
          ? [{ findingId: 'x', detector: 'node-drain', title: 'Drain blocked', severity: 'warning' }]
          : [],
      null,
      now,
    );
    expect(fleet.pairs).toEqual([
      {
        from: '4.15.30',
        to: '4.16.9',
        clusters: 5,
        completed: 4,
        ongoing: 1,
        p50Seconds: 2 * 3_600,
        p95Seconds: 4 * 3_600,
      },
    ]);
    // e has run 5 hours, longer than any completed one.
    expect(fleet.updates.filter((u) => u.slowerThanP95).map((u) => u.clusterId)).toEqual(['e']);
    expect(fleet.updates.find((u) => u.clusterId === 'e')?.findings).toHaveLength(1);
    // Only what ended after `since` (or is ongoing).
    const recent = fleetUpdates(spans, () => [], Date.parse(H(12.5)), now);
    expect(recent.updates.map((u) => u.clusterId)).toEqual(['c', 'd', 'e']);
  });

  it('writes CSV with a header, quoting and no spreadsheet formulas', () => {
    const csv = updatesCsv([
      {
        clusterId: '=cmd|calc',
        clusterName: 'x',
        from: '4.15.30',
        to: '4.16.9',
        startedAt: H(0),
        completedAt: null,
        ongoing: true,
        durationSeconds: 60,
        state: 'Partial',
        phases: [{ name: 'control plane', kind: 'control-plane', percent: 40, done: false }],
        findings: [{ findingId: 'f', detector: 'd', title: 'Drain "blocked", twice', severity: 'warning' }],
        slowerThanP95: false,
      },
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'cluster,from,to,started,completed,ongoing,duration_seconds,state,phases,findings,slower_than_p95',
    );
    expect(lines[1]).toBe(
      `'=cmd|calc,4.15.30,4.16.9,${H(0)},,true,60,Partial,control plane 40%,"warning Drain ""blocked"", twice",false`,
    );
    expect(lines[2]).toBe('');
  });
});
