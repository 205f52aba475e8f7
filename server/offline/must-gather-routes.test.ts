import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentSchema } from '@/lib/api/incident-dto';
import { mustGatherCreatedSchema, mustGatherResultSchema } from '@/lib/api/must-gather-dto';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { directoryEntries, writeTestArchive } from './test-support';

const dir = mkdtempSync(join(tmpdir(), 'must-gather-routes-'));
const root = join(dir, 'root');
const archive = join(dir, 'mg.tar.gz');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  process.env.UPDATE_HEALTH_KUBECONFIG = join(dir, 'unused-kubeconfig.yaml');
  process.env.UPDATE_HEALTH_DATA_DIR = dir;
  process.env.UPDATE_HEALTH_MUST_GATHER_ROOT = root;
  await writeTestArchive(archive, directoryEntries('server/fixtures/must-gather/azure-4.8.11', 'must-gather.local.1/'));
  const { mkdirSync } = await import('node:fs');
  mkdirSync(root);
  symlinkSync('/etc', join(root, 'etc-link'));
});

const post = (body: BodyInit, type: string, headers: Record<string, string> = {}, query = '') =>
  new NextRequest(`http://127.0.0.1:3000/api/must-gather${query}`, {
    method: 'POST',
    body,
    headers: { 'content-type': type, host: '127.0.0.1:3000', ...headers },
    duplex: 'half',
  } as ConstructorParameters<typeof NextRequest>[1]);

describe('must-gather routes', () => {
  it('POST an archive, GET the result, freeze it into an incident', async () => {
    const { POST } = await import('@/app/api/must-gather/route');
    const created = await POST(
      post(readFileSync(archive), 'application/octet-stream', { origin: 'http://127.0.0.1:3000' }, '?name=mg.tar.gz'),
    );
    expect(created.status).toBe(201);
    const { id, url } = mustGatherCreatedSchema.parse(await created.json());
    expect(url).toBe(`/must-gather/${id}`);

    const { GET } = await import('@/app/api/must-gather/[id]/route');
    const got = await GET(new NextRequest(`http://127.0.0.1/api/must-gather/${id}`), {
      params: Promise.resolve({ id }),
    });
    const result = mustGatherResultSchema.parse(await got.json());
    expect(result).toMatchObject({ label: 'mg.tar.gz', source: 'upload', health: { cluster: { version: '4.8.11' } } });
    const missing = await GET(new NextRequest('http://127.0.0.1/api/must-gather/x'), {
      params: Promise.resolve({ id: 'x' }),
    });
    expect(missing.status).toBe(404);

    const incidentRoute = await import('@/app/api/must-gather/[id]/incident/route');
    const frozen = await incidentRoute.POST(post('', 'application/json'), { params: Promise.resolve({ id }) });
    expect(frozen.status).toBe(201);
    const { GET: getIncident } = await import('@/app/api/incidents/[id]/route');
    const incidentId = ((await frozen.json()) as { id: string }).id;
    const incident = await getIncident(new NextRequest(`http://127.0.0.1/api/incidents/${incidentId}`), {
      params: Promise.resolve({ id: incidentId }),
    });
    expect(incidentSchema.parse(await incident.json())).toMatchObject({ cluster: { version: '4.8.11' } });
  });

  it('answers 429 with Retry-After while the same user has an analysis running', async () => {
    const { POST } = await import('@/app/api/must-gather/route');
    let finish!: () => void;
    const held = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(readFileSync(archive));
        finish = () => controller.close();
      },
    });
    const first = POST(post(held, 'application/octet-stream', {}, '?name=held.tar.gz'));
    const second = await POST(post(readFileSync(archive), 'application/octet-stream', {}, '?name=second.tar.gz'));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await second.json()).toMatchObject({ error: { code: 'too_many_requests' } });
    finish();
    expect((await first).status).toBe(201);
    const third = await POST(post(readFileSync(archive), 'application/octet-stream', {}, '?name=third.tar.gz'));
    expect(third.status).toBe(201);
  });

  it('refuses cross-site requests, paths outside the root, bad bodies and garbage archives with JSON errors', async () => {
    const { POST } = await import('@/app/api/must-gather/route');
    const crossSite = await POST(
      post('x', 'application/octet-stream', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
    );
    expect(crossSite.status).toBe(403);
    for (const path of ['../../etc/passwd', '/etc', 'etc-link']) {
      const response = await POST(post(JSON.stringify({ path }), 'application/json'));
      expect(response.status, path).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'outside_root' } });
    }
    expect((await POST(post(JSON.stringify({ path: 'missing' }), 'application/json'))).status).toBe(404);
    expect((await POST(post(JSON.stringify({ nope: 1 }), 'application/json'))).status).toBe(400);
    expect((await POST(post('x', 'text/plain'))).status).toBe(415);
    const garbage = await POST(post('not an archive at all', 'application/octet-stream'));
    expect(garbage.status).toBe(422);
    expect(await garbage.json()).toMatchObject({ error: { code: 'bad_input' } });
  });

  it('records who froze an analysis as the creator of its incident, read back with that author', async () => {
    const as = (name: string) => ({
      [VIEWER_HEADER]: encodeViewer({ kind: 'user', user: { name, groups: [] }, via: 'bearer' }),
    });
    const { POST } = await import('@/app/api/must-gather/route');
    const created = await POST(post(readFileSync(archive), 'application/octet-stream', as('alice'), '?name=a.tar.gz'));
    expect(created.status).toBe(201);
    const { id } = mustGatherCreatedSchema.parse(await created.json());

    const incidentRoute = await import('@/app/api/must-gather/[id]/incident/route');
    const frozen = await incidentRoute.POST(post('', 'application/json', as('alice')), {
      params: Promise.resolve({ id }),
    });
    expect(frozen.status).toBe(201);
    const incidentId = ((await frozen.json()) as { id: string }).id;
    const { GET } = await import('@/app/api/incidents/[id]/route');
    const read = (headers: Record<string, string>) =>
      GET(new NextRequest(`http://127.0.0.1/api/incidents/${incidentId}`, { headers }), {
        params: Promise.resolve({ id: incidentId }),
      });
    const incident = incidentSchema.parse(await (await read(as('alice'))).json());
    expect(incident).toMatchObject({ createdBy: 'alice', author: { kind: 'user', name: 'alice' } });
    expect(incidentSchema.parse(await (await read({})).json()).createdBy).toBe('alice');
  });
});
