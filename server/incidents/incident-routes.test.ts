import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentSchema } from '@/lib/api/incident-dto';
import { createIncident } from './incident-service';
import { DATABASE_FILE } from '@/server/db/database-location';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { scenarioSource } from './testing/incident-source';

const dir = mkdtempSync(join(tmpdir(), 'incident-routes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  // A server whose fleet no longer has the cluster: the kubeconfig is never read by the incident routes.
  process.env.UPDATE_HEALTH_KUBECONFIG = join(dir, 'gone-kubeconfig.yaml');
  process.env.UPDATE_HEALTH_DATA_DIR = dir;
});

describe('incident routes', () => {
  it('GET /api/incidents/{id} serves an incident written by an earlier server process, with the cluster gone', async () => {
    const earlier = new SqliteIncidentRepository(join(dir, DATABASE_FILE));
    const { id } = await createIncident(scenarioSource('steady', 60_000), earlier);
    await earlier.close();

    const { GET } = await import('@/app/api/incidents/[id]/route');
    const response = await GET(new NextRequest(`http://127.0.0.1/api/incidents/${id}`), { params: Promise.resolve({ id }) });
    expect(response.status).toBe(200);
    const incident = incidentSchema.parse(await response.json());
    expect(incident).toMatchObject({ id, cluster: { id: 'steady' } });

    const missing = await GET(new NextRequest('http://127.0.0.1/api/incidents/x'), { params: Promise.resolve({ id: '../../etc/passwd' }) });
    expect(missing.status).toBe(404);
  });

  it('POST /api/incidents refuses a cross-origin request with 403 JSON before touching anything', async () => {
    const { POST } = await import('@/app/api/incidents/route');
    const response = await POST(new NextRequest('http://127.0.0.1:3000/api/incidents', {
      method: 'POST', body: JSON.stringify({ clusterId: 'steady' }),
      headers: { host: '127.0.0.1:3000', origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
    }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'cross_site_request' } });
  });
});
