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
import type { IncidentRepository } from './incident-repository';
import { PostgresIncidentRepository } from './postgres-incident-repository';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { scenarioSource } from './testing/incident-source';

describeOnEveryDatabase<IncidentRepository>('incident repository contract', {
  sqlite: (file) => new SqliteIncidentRepository(file),
  postgres: (url) => new PostgresIncidentRepository(url),
}, (open) => {
  it('an incident made on one instance opens, identical, on another instance of the same database', async () => {
    const one = open();
    const other = open();
    const source = scenarioSource('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 120_000);
    const created = await createIncident(source, one, { now: () => new Date('2026-11-22T10:00:00Z') });
    const onOne = await one.get(created.id);
    const onOther = await other.get(created.id);
    expect(onOther).toEqual(onOne);
    expect(onOther?.health.findings.some((f) => f.id === 'status-write-rejection:ClusterVersion//version:enum')).toBe(true);
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
});

describe('PostgreSQL migrations', () => {
  let server: PostgresServer | undefined;
  beforeAll(async () => { server = await startPostgres(); }, 120_000);
  afterAll(() => server?.stop());

  it('apply once even when several replicas start together', async () => {
    const replicas = [0, 1, 2].map(() => new PostgresIncidentRepository(server!.url));
    const versions = await Promise.all(replicas.map((replica) => replica.schemaVersions()));
    for (const applied of versions) expect(applied).toEqual(MIGRATIONS.map((migration) => migration.version));
    for (const replica of replicas) await replica.close();
  });
});
