/**
 * The security review's reproduction: 20 incident POSTs from one client, as fast as it can send them, against a real
 * embedded cluster. Before limits all 20 were written (4 MB in 0.4 s); now the burst allowance is written and the
 * rest answered 429 with Retry-After, writing nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '@/server/db/database-location';
import { startFleet, type Fleet } from '@/server/simulator/fleet';
import { SqliteIncidentRepository } from './sqlite-incident-repository';

const BURST = 4;
const dir = mkdtempSync(join(tmpdir(), 'incident-limits-route-'));
let fleet: Fleet | undefined;

beforeAll(async () => {
  fleet = await startFleet({ scenarios: ['steady'], speed: 1 });
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, fleet.kubeconfig('reader'), { mode: 0o600 });
  process.env.UPDATE_HEALTH_KUBECONFIG = kubeconfig;
  process.env.UPDATE_HEALTH_DATA_DIR = dir;
  process.env.UPDATE_HEALTH_INCIDENT_BURST = String(BURST);
  // One an hour: no refill can land while the burst is being sent.
  process.env.UPDATE_HEALTH_INCIDENTS_PER_HOUR = '1';
});

afterAll(async () => {
  const { getFleet } = await import('@/server/engine/fleet');
  getFleet().stop();
  await fleet?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = () =>
  new NextRequest('http://127.0.0.1:3000/api/incidents', {
    method: 'POST',
    body: JSON.stringify({ clusterId: 'steady' }),
    headers: { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'content-type': 'application/json' },
  });

describe('POST /api/incidents limits', () => {
  it('answers 20 rapid POSTs from one user with the burst allowance of 201s, then 429 with Retry-After', async () => {
    const { POST } = await import('@/app/api/incidents/route');
    const responses = await Promise.all(Array.from({ length: 20 }, () => POST(post())));
    const created = responses.filter((r) => r.status === 201);
    const limited = responses.filter((r) => r.status === 429);
    expect(created).toHaveLength(BURST);
    expect(limited).toHaveLength(20 - BURST);
    for (const response of limited) {
      expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({
        error: { code: 'too_many_requests', message: expect.stringMatching(/^too many incidents/) },
      });
    }
    const stored = new SqliteIncidentRepository(join(dir, DATABASE_FILE));
    expect(stored.ids()).toHaveLength(BURST);
    await stored.close();
  });
});
