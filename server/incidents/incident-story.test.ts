import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { incidentSchema } from '@/lib/api/incident-dto';
import { MAX_POINTS } from '@/lib/charts/downsample';
import { ROLLBACK_AFTER_WINDOW } from '@/server/simulator/scenarios/cross-minor-rollback';
import { createIncident } from './incident-service';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { scenarioSource } from '@/server/testing/incident-source';

const dir = mkdtempSync(join(tmpdir(), 'incident-story-'));
const repository = new SqliteIncidentRepository(join(dir, 'incidents.sqlite'));
afterAll(async () => {
  await repository.close();
  rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const REJECTION = 'status-write-rejection:ClusterVersion//version:enum';

/** Two hours after the rejected status write began: the story's onset is well outside the page's last hour. */
const twoHoursIn = (sampleEveryMs: number) =>
  scenarioSource('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 2 * HOUR, { sampleEveryMs });

async function freeze(source: ReturnType<typeof scenarioSource>, options: Parameters<typeof createIncident>[2] = {}) {
  const now = source.series().now;
  const created = await createIncident(source, repository, { from: now - HOUR, to: now, limits: null, ...options });
  return incidentSchema.parse(await repository.get(created.id));
}

describe('an incident carries the story from its onset', () => {
  it('created two hours in with the last hour asked for, its window and series start before the onset', async () => {
    const source = twoHoursIn(60_000);
    const onset = Date.parse(source.health().findings.find((f) => f.id === REJECTION)!.since!);
    expect(source.series().now - onset).toBeGreaterThan(HOUR);
    const incident = await freeze(source, {
      title: 'Rollback to 4.13 rejects status writes',
      note: 'Paged at 10:20.\nCVO logs attached.',
    });
    expect(incident.window.from).toBeLessThan(onset);
    expect(incident.window.to).toBe(incident.capturedAt);
    const times = incident.series.samples['status-write-rejection']!.map((p) => p.t);
    expect(Math.min(...times)).toBeLessThan(onset);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(incident.window.from);
    expect(Math.max(...times)).toBe(incident.capturedAt);
    expect(incident.title).toBe('Rollback to 4.13 rejects status writes');
    expect(incident.note).toBe('Paged at 10:20.\nCVO logs attached.');
    expect(incident.author).toStrictEqual({ kind: 'local' });
  });

  it('samples every second over the whole story stay within the chart budget per series', async () => {
    const incident = await freeze(twoHoursIn(1_000));
    const points = incident.series.samples['status-write-rejection']!;
    expect(points.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(points.length).toBeGreaterThan(MAX_POINTS / 2);
    // Min-max downsampling keeps the spikes, not only an even stride.
    expect(points.some((p) => p.values.rejectedValues === 4)).toBe(true);
    expect(points[0]!.t).toBeLessThanOrEqual(incident.window.from + 1_000);
  });

  it("without a title takes the worst finding's; a logged-in creator is its author", async () => {
    const source = twoHoursIn(60_000);
    const incident = await freeze(source, { title: '   ', createdBy: 'alice' });
    expect(incident.title).toBe(source.health().findings.find((f) => f.id === REJECTION)!.title);
    expect(incident.titleFindingId).toBe(REJECTION);
    expect(incident.note).toBe('');
    expect(incident.author).toStrictEqual({ kind: 'user', name: 'alice' });
    expect(incident.createdBy).toBe('alice');
  });

  it('title and note go through the redactor like the rest', async () => {
    const token = 'sha256~q7Yx3-kP0sLmN2vB8cR4tW6zA1eD5fG9hJ';
    const incident = await freeze(twoHoursIn(60_000), {
      title: `login fails with password=Tr0ub4dor&3-db-password`,
      note: `curl -H "Authorization: Bearer ${token}" https://api.cluster.example.com:6443`,
    });
    const text = JSON.stringify({ title: incident.title, note: incident.note });
    expect(text).not.toContain('Tr0ub4dor');
    expect(text).not.toContain(token);
    expect(incident.redaction.entries.map((e) => e.path)).toEqual(expect.arrayContaining(['title', 'note']));
  });

  it('an incident stored before titles, notes and authors loads with them defaulted', async () => {
    const current = await freeze(twoHoursIn(60_000));
    const old: Record<string, unknown> = { ...current };
    for (const key of ['title', 'note', 'author', 'titleFindingId']) delete old[key];
    const loaded = incidentSchema.parse({ ...old, createdBy: null });
    expect(loaded.title).toBe(current.health.findings.find((f) => f.severity === 'critical')!.title);
    expect(loaded.titleFindingId).toBe(REJECTION);
    expect(loaded.note).toBe('');
    expect(loaded.author).toStrictEqual({ kind: 'local' });
    expect(incidentSchema.parse({ ...old, createdBy: 'bob' }).author).toStrictEqual({ kind: 'user', name: 'bob' });
  });
});
