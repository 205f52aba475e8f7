/**
 * One contract for the finding history on SQLite (the embedded default) and PostgreSQL (a real server started by
 * the test). Two repository instances on one database stand for two replicas evaluating the same cluster.
 */
import { expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { observeFinding } from '@/lib/history/finding-lifecycle';
import { buildTimeline } from '@/lib/history/timeline';
import { describeOnEveryDatabase } from '@/server/testing/every-database';
import { startIncidentRetention } from '@/server/incidents/incident-retention';
import type { FindingHistoryRepository } from './finding-history-repository';
import { PostgresFindingHistory } from './postgres-finding-history';
import { recordFinding } from './record-finding';
import { SqliteFindingHistory } from './sqlite-finding-history';

const T = Date.parse('2026-11-25T10:00:00.000Z');

function finding(id: string, severity: FindingDto['severity'] = 'warning', summary = 'blocked'): FindingDto {
  return {
    id,
    detector: 'node-drain',
    severity,
    subject: { kind: 'Node', name: id },
    title: `Drain of ${id} is blocked`,
    summary,
    evidence: [{ kind: 'field', label: 'budget', ref: { kind: 'PodDisruptionBudget', name: 'db', namespace: 'shop' } }],
    remediation: [],
    since: new Date(T).toISOString(),
  };
}

describeOnEveryDatabase<FindingHistoryRepository>(
  'finding history contract',
  {
    sqlite: (file) => new SqliteFindingHistory(file),
    postgres: (url) => new PostgresFindingHistory(url),
  },
  (open) => {
    it('two replicas recording the same lifecycle store each event once, and agree on the opening', async () => {
      const one = open();
      const other = open();
      const seen = observeFinding(finding('w1'));
      // Both see the finding at once (their clocks a second apart), then its severity rise, then it go away.
      const opened = await Promise.all([
        recordFinding(one, 'c1', 'w1', seen, T + 60_000),
        recordFinding(other, 'c1', 'w1', seen, T + 61_000),
      ]);
      expect(opened[0]).toEqual(opened[1]);
      expect(opened[0]).toMatchObject({ openedAt: T, resolvedAt: null, revision: 1 });
      const critical = observeFinding(finding('w1', 'critical'));
      await Promise.all([
        recordFinding(one, 'c1', 'w1', critical, T + 120_000),
        recordFinding(other, 'c1', 'w1', critical, T + 121_000),
      ]);
      await Promise.all([
        recordFinding(one, 'c1', 'w1', undefined, T + 180_000),
        recordFinding(other, 'c1', 'w1', undefined, T + 181_000),
      ]);
      const events = await one.events('c1', T, T + 200_000);
      expect(events.map((event) => event.kind)).toEqual(['opened', 'severity', 'resolved']);
      expect(await other.openStates('c1')).toEqual([]);
      expect(await other.state('c1', 'w1')).toMatchObject({ resolvedAt: expect.any(Number), revision: 3 });
    });

    it('reads open findings back with their opening, and answers a window with the episodes overlapping it', async () => {
      const writer = open();
      await recordFinding(writer, 'c2', 'a', observeFinding(finding('a')), T);
      await recordFinding(writer, 'c2', 'b', observeFinding({ ...finding('b'), since: undefined }), T + 600_000);
      await recordFinding(writer, 'c2', 'a', undefined, T + 300_000);
      const reader = open();
      expect((await reader.openStates('c2')).map((state) => [state.findingId, state.openedAt])).toEqual([
        ['b', T + 600_000],
      ]);
      // A window before b opened sees a only; one after a resolved sees b only.
      const before = buildTimeline(await reader.events('c2', T + 60_000, T + 120_000), T + 60_000, T + 120_000);
      expect(before.map((entry) => entry.findingId)).toEqual(['a']);
      const after = buildTimeline(await reader.events('c2', T + 400_000, T + 700_000), T + 400_000, T + 700_000);
      expect(after.map((entry) => [entry.findingId, entry.resolvedAt])).toEqual([['b', null]]);
      expect(await reader.events('other-cluster', 0, T * 2)).toEqual([]);
    });

    it('retention deletes episodes resolved before the cutoff and keeps the opening of one still open', async () => {
      const repository = open();
      const day = 24 * 60 * 60 * 1_000;
      await recordFinding(repository, 'c3', 'old', observeFinding(finding('old')), T);
      await recordFinding(repository, 'c3', 'old', undefined, T + 60_000);
      await recordFinding(repository, 'c3', 'long', observeFinding(finding('long')), T);
      await recordFinding(repository, 'c3', 'long', observeFinding(finding('long', 'critical')), T + 60_000);
      await recordFinding(
        repository,
        'c3',
        'new',
        observeFinding({ ...finding('new'), since: undefined }),
        T + 40 * day,
      );
      const outcomes: unknown[] = [];
      const retention = startIncidentRetention(repository, {
        maxAgeDays: 30,
        everyMs: 20,
        now: () => T + 40 * day,
        report: (outcome) => outcomes.push(outcome),
      });
      await retention.nextRun();
      await retention.nextRun();
      retention.stop();
      // old: opened and resolved; long: its severity change (and the other tests' clusters, all ended by then). The
      // opening of the open "long" stays; a second run finds nothing more.
      expect(outcomes[0]).toMatchObject({ deleted: expect.any(Number) });
      expect((outcomes[0] as { deleted: number }).deleted).toBeGreaterThanOrEqual(3);
      expect(outcomes[1]).toStrictEqual({ deleted: 0 });
      const left = await repository.events('c3', 0, T + 41 * day);
      expect(left.map((event) => [event.findingId, event.kind])).toEqual([
        ['long', 'opened'],
        ['new', 'opened'],
      ]);
      expect(await repository.state('c3', 'old')).toBeUndefined();
      expect((await repository.openStates('c3')).map((state) => state.findingId)).toEqual(['long', 'new']);
    });
  },
);
