/**
 * One contract for every incident store: SQLite (the embedded default) and PostgreSQL (a real server started by the
 * test from Debian's binaries). Two repository instances on one database stand for two app replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '@/server/db/postgres-migrations';
import { ROLLBACK_AFTER_WINDOW } from '@/server/simulator/scenarios/cross-minor-rollback';
import { describeOnEveryDatabase } from '@/server/testing/every-database';
import { startPostgres, type PostgresServer } from '@/server/testing/postgres-server';
import { createIncident } from './incident-service';
import { IncidentLimitError, IncidentLimits } from './incident-limits';
import { startIncidentRetention } from './incident-retention';
import type { IncidentRepository } from './incident-repository';
import { PostgresIncidentRepository } from './postgres-incident-repository';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { scenarioSource } from '@/server/testing/incident-source';

describeOnEveryDatabase<IncidentRepository>(
  'incident repository contract',
  {
    sqlite: (file) => new SqliteIncidentRepository(file),
    postgres: (url) => new PostgresIncidentRepository(url),
  },
  (open) => {
    it('an incident made on one instance opens, identical, on another instance of the same database', async () => {
      const one = open();
      const other = open();
      const source = scenarioSource('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 120_000);
      const created = await createIncident(source, one, { now: () => new Date('2026-11-22T10:00:00Z') });
      const onOne = await one.get(created.id);
      const onOther = await other.get(created.id);
      expect(onOther).toEqual(onOne);
      expect(onOther?.health.findings.some((f) => f.id === 'status-write-rejection:ClusterVersion//version:enum')).toBe(
        true,
      );
      expect(onOther?.createdAt).toBe('2026-11-22T10:00:00.000Z');
    });

    it('answers undefined for an unknown id and refuses a duplicate id', async () => {
      const repository = open();
      expect(await repository.get('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
      const source = scenarioSource('steady', 60_000);
      const created = await createIncident(source, repository, { now: () => new Date('2026-11-22T11:00:00Z') });
      const incident = (await repository.get(created.id))!;
      await expect(repository.create(incident)).rejects.toThrow();
      expect(await open().get(created.id)).toEqual(incident);
    });

    it("measures one creator's incidents in a window and deletes those past retention, on every replica", async () => {
      const one = open();
      const other = open();
      const source = scenarioSource('steady', 60_000);
      const at = (iso: string) => ({ now: () => new Date(iso), limits: null });
      const old = await createIncident(source, one, { ...at('2025-01-01T00:00:00Z'), createdBy: 'carol' });
      const recent = await createIncident(source, one, { ...at('2025-06-01T12:00:00Z'), createdBy: 'carol' });
      await createIncident(source, one, { ...at('2025-06-01T13:00:00Z'), createdBy: 'dave' });
      await createIncident(source, one, { ...at('2025-06-01T14:00:00Z'), createdBy: null });

      const carol = await other.usageSince('carol', '2025-05-31T12:00:00.000Z');
      expect(carol).toMatchObject({ count: 1, oldest: '2025-06-01T12:00:00.000Z' });
      const size = Buffer.byteLength(JSON.stringify(await other.get(recent.id)));
      expect(carol.bytes).toBeGreaterThan(size * 0.8);
      expect(carol.bytes).toBeLessThan(size * 1.2);
      // Incidents without a creator are one more creator (other tests' ones come later, hence the difference).
      const anonymous = async (since: string) => (await other.usageSince(null, since)).count;
      expect((await anonymous('2025-05-31T12:00:00.000Z')) - (await anonymous('2025-06-01T14:00:01.000Z'))).toBe(1);
      expect(await other.usageSince('erin', '2025-05-31T12:00:00.000Z')).toStrictEqual({
        count: 0,
        bytes: 0,
        oldest: null,
      });

      // Retention with 90 days on 2025-06-02: the January incident goes, the June ones stay; later runs delete nothing.
      const outcomes: unknown[] = [];
      const retention = startIncidentRetention(other, {
        maxAgeDays: 90,
        everyMs: 20,
        now: () => Date.parse('2025-06-02T00:00:00Z'),
        report: (o) => outcomes.push(o),
      });
      await retention.nextRun();
      await retention.nextRun();
      retention.stop();
      expect(outcomes.slice(0, 2)).toStrictEqual([{ deleted: 1 }, { deleted: 0 }]);
      expect(await one.get(old.id)).toBeUndefined();
      expect(await one.get(recent.id)).toBeDefined();
    });

    it('enforces the daily quota per creator from what is stored, and refuses an oversized incident', async () => {
      const repository = open();
      const source = scenarioSource('steady', 60_000);
      let clock = Date.parse('2025-09-01T08:00:00Z');
      const settings = { burst: 100, perHour: 100, dailyCount: 2, dailyBytes: 10 ** 9, maxBytes: 10 ** 8 };
      const limits = new IncidentLimits(settings, () => clock);
      const as = (createdBy: string) => ({ createdBy, limits, now: () => new Date(clock) });
      await createIncident(source, repository, as('frank'));
      clock += 60 * 60_000;
      await createIncident(source, repository, as('frank'));
      const refused = await createIncident(source, repository, as('frank')).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(IncidentLimitError);
      // Until the first one is 24 hours old: 23 hours from now.
      expect(refused).toMatchObject({ code: 'daily_quota', retryAfterSeconds: 23 * 3_600 });
      await createIncident(source, repository, as('grace'));
      clock += 23 * 60 * 60_000 + 1_000;
      await createIncident(source, repository, as('frank'));

      const tiny = new IncidentLimits({ ...settings, dailyCount: 100, maxBytes: 2_000 }, () => clock);
      const before = (await repository.usageSince('heidi', '2000-01-01T00:00:00.000Z')).count;
      await expect(createIncident(source, repository, { createdBy: 'heidi', limits: tiny })).rejects.toMatchObject({
        code: 'incident_too_large',
      });
      expect((await repository.usageSince('heidi', '2000-01-01T00:00:00.000Z')).count).toBe(before);
    });
  },
);

describe('PostgreSQL migrations', () => {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());

  it('apply once even when several replicas start together', async () => {
    const replicas = [0, 1, 2].map(() => new PostgresIncidentRepository(server!.url));
    const versions = await Promise.all(replicas.map((replica) => replica.schemaVersions()));
    for (const applied of versions) expect(applied).toEqual(MIGRATIONS.map((migration) => migration.version));
    for (const replica of replicas) await replica.close();
  });
});
