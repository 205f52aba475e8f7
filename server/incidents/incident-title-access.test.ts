import { describe, expect, it } from 'vitest';
import { incidentSchema, type IncidentDto } from '@/lib/api/incident-dto';
import type { IncidentRepository } from './incident-repository';
import { createIncident } from './incident-service';
import { scenarioSource } from '@/server/testing/incident-source';
import { ROLLBACK_AFTER_WINDOW } from '@/server/simulator/scenarios/cross-minor-rollback';
import { sortFindings } from '@/lib/health/finding-order';
import type { AccessAnswers } from '@/lib/access/access-check';
import { visibleIncident } from '@/lib/access/visible-incident';

const REJECTION = 'status-write-rejection:ClusterVersion//version:enum';

async function frozen(title?: string): Promise<IncidentDto> {
  const stored: IncidentDto[] = [];
  const create = async (incident: IncidentDto) => {
    stored.push(incident);
  };
  const repository = { create } as unknown as IncidentRepository;
  const source = scenarioSource('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 120_000);
  await createIncident(source, repository, { limits: null, title });
  return incidentSchema.parse(stored[0]);
}

const noClusterVersion: AccessAnswers = (check) => check.resource !== 'clusterversions' && check.resource !== '*';

describe('an incident title for a reader who cannot see every finding', () => {
  it("a default title taken from a hidden finding becomes the worst visible finding's", async () => {
    const incident = await frozen();
    expect(incident.titleFindingId).toBe(REJECTION);
    const seen = visibleIncident(incident, [], noClusterVersion);
    expect(seen.health.findings.some((f) => f.id === REJECTION)).toBe(false);
    // On 4.14 nothing else speaks to this reader (no OLMv1 there): the title names the cluster, not a finding.
    const worstVisible = sortFindings(seen.health.findings)[0];
    expect(seen.title).toBe(worstVisible?.title ?? `Incident on ${incident.cluster.name}`);
    expect(seen.titleFindingId).toBe(worstVisible?.id ?? null);
    expect(JSON.stringify({ title: seen.title, id: seen.titleFindingId })).not.toContain('ClusterVersion');
  });

  it('a title the creator wrote is kept', async () => {
    const incident = await frozen('Rollback stuck');
    expect(visibleIncident(incident, [], noClusterVersion).title).toBe('Rollback stuck');
  });
});
