import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENT_NOTE_MAX, INCIDENT_TITLE_MAX, incidentSchema } from '@/lib/api/incident-dto';
import { createIncident } from './incident-service';
import { DATABASE_FILE } from '@/server/db/database-location';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { scenarioSource } from '@/server/testing/incident-source';

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
    const response = await GET(new NextRequest(`http://127.0.0.1/api/incidents/${id}`), {
      params: Promise.resolve({ id }),
    });
    expect(response.status).toBe(200);
    const incident = incidentSchema.parse(await response.json());
    expect(incident).toMatchObject({ id, cluster: { id: 'steady' } });

    const missing = await GET(new NextRequest('http://127.0.0.1/api/incidents/x'), {
      params: Promise.resolve({ id: '../../etc/passwd' }),
    });
    expect(missing.status).toBe(404);
  });

  it('POST /api/incidents refuses a cross-origin request with 403 JSON before touching anything', async () => {
    const { POST } = await import('@/app/api/incidents/route');
    const response = await POST(
      new NextRequest('http://127.0.0.1:3000/api/incidents', {
        method: 'POST',
        body: JSON.stringify({ clusterId: 'steady' }),
        headers: {
          host: '127.0.0.1:3000',
          origin: 'https://attacker.example',
          'sec-fetch-site': 'cross-site',
          'content-type': 'application/json',
        },
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'cross_site_request' } });
  });

  it('POST /api/incidents refuses a body over 16 KiB with 413, by Content-Length or as it streams', async () => {
    const { POST } = await import('@/app/api/incidents/route');
    const headers = { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'content-type': 'application/json' };
    const big = JSON.stringify({ clusterId: 'steady', padding: 'x'.repeat(64 * 1024) });
    const url = 'http://127.0.0.1:3000/api/incidents';
    const declared = await POST(new NextRequest(url, { method: 'POST', body: big, headers }));
    expect(declared.status).toBe(413);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(new TextEncoder().encode('x'.repeat(4096)));
      },
    });
    const streamed = await POST(
      new NextRequest(url, {
        method: 'POST',
        body: endless,
        headers,
        duplex: 'half',
      } as ConstructorParameters<typeof NextRequest>[1]),
    );
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ error: { code: 'too_large' } });
    expect(sent).toBeLessThan(10);
  });

  it('POST /api/incidents takes the longest title and note, every character escaped, and no longer', async () => {
    const { POST } = await import('@/app/api/incidents/route');
    const headers = { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'content-type': 'application/json' };
    const url = 'http://127.0.0.1:3000/api/incidents';
    const escaped = (n: number) => '\u0001'.repeat(n);
    const longest = {
      clusterId: 'no-such-cluster',
      title: escaped(INCIDENT_TITLE_MAX),
      note: escaped(INCIDENT_NOTE_MAX),
    };
    // Read and validated in full, it gets as far as looking the cluster up in the fleet, which this server lacks.
    const body = JSON.stringify(longest);
    expect(body.length).toBeGreaterThan(12 * 1024);
    await expect(POST(new NextRequest(url, { method: 'POST', body, headers }))).rejects.toMatchObject({
      name: 'FleetConfigError',
    });
    const tooLong = await POST(
      new NextRequest(url, {
        method: 'POST',
        body: JSON.stringify({ ...longest, note: 'n'.repeat(INCIDENT_NOTE_MAX + 1) }),
        headers,
      }),
    );
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      error: { code: 'bad_request', message: expect.stringContaining('note') },
    });
  });
});
