import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUST_GATHER_ADMIN_PATH, isMustGatherClusterId } from '@/lib/api/must-gather-dto';
import { AuthService } from '@/server/auth/auth-service';
import type { Viewer } from '@/server/auth/identity';
import type { AuthEnv } from '@/server/env';
import { getIncidentRepository } from '@/server/incidents/incident-store';
import { EMBEDDED_USERS } from '@/server/simulator/access/access-seed';
import { dumpScenario } from '@/server/simulator/must-gather-writer';
import { catalogdRolloutScenario } from '@/server/simulator/scenarios/catalogd-rollout';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { AnalysisAdmission } from './analysis-admission';
import {
  analyzePathFor,
  analyzeUploadFor,
  mustGatherIncidentFor,
  resultFor,
  type MustGatherDeps,
} from './must-gather-requests';
import { ResultStore } from './result-store';
import { directoryEntries, writeTestArchive } from './test-support';

const dir = mkdtempSync(join(tmpdir(), 'mg-requests-'));
const root = join(dir, 'root');
const archive = join(dir, 'catalogd-rollout.tar.gz');
let t: TestServer;
let deps: MustGatherDeps;

/** A user as the embedded clusters know them (name and group); their access comes from the cluster's RBAC. */
const user = (name: (typeof EMBEDDED_USERS)[number]['user']): Viewer => {
  const group = EMBEDDED_USERS.find((entry) => entry.user === name)!.group;
  return { kind: 'user', user: { name, groups: [group, 'system:authenticated'] }, via: 'bearer' };
};
const [admin, sre, dev] = [user('admin'), user('sre'), user('dev')];
const upload = () =>
  (async function* () {
    yield readFileSync(archive);
  })();

beforeAll(async () => {
  process.env.UPDATE_HEALTH_DATA_DIR = dir;
  mkdirSync(root);
  const written = await dumpScenario(catalogdRolloutScenario, { dir: join(root, 'catalogd') });
  const wrapper = written.root.split('/').pop();
  await writeTestArchive(archive, directoryEntries(join(root, 'catalogd'), `must-gather.local.1/${wrapper}/`));
  t = await startTestServer();
  // The auth service exactly as the product builds it, its SubjectAccessReviews answered by the embedded cluster.
  const env = {
    UPDATE_HEALTH_AUTH: 'openshift',
    UPDATE_HEALTH_OAUTH_CLIENT_ID: 'x',
    UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE: 'x',
  } as AuthEnv;
  const review = async (_cluster: string, path: string, body: unknown) => {
    const request = { identity: 'reader', body: JSON.stringify(body), contentType: 'application/json' } as const;
    const answer = await t.raw('POST', path, request);
    return JSON.parse(answer.body) as unknown;
  };
  const auth = new AuthService(
    env,
    () => {
      throw new Error('no sessions here');
    },
    () => 'embedded',
    review,
  );
  deps = {
    store: new ResultStore(),
    root: () => root,
    admission: new AnalysisAdmission(2, { capacity: 100, refillPerSecond: 1 }),
    mayAdminister: (viewer) => auth.mayGetPath(viewer, MUST_GATHER_ADMIN_PATH),
  };
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('must-gather requests under login', () => {
  it('opens server paths for administrators only, refusing others before any file-system access', async () => {
    const forbidden = { name: 'MustGatherRefusal', code: 'forbidden' };
    for (const path of ['catalogd', 'missing', '../../etc']) {
      await expect(analyzePathFor(dev, path, deps), path).rejects.toMatchObject(forbidden);
      await expect(analyzePathFor(sre, path, deps), path).rejects.toMatchObject(forbidden);
    }
    const opened = await analyzePathFor(admin, 'catalogd', deps);
    expect(opened).toMatchObject({ source: 'path', label: 'catalogd', createdBy: 'admin' });
    await expect(analyzePathFor(admin, 'missing', deps)).rejects.toMatchObject({ code: 'not_found' });
    await expect(analyzePathFor({ kind: 'local' }, 'catalogd', deps)).resolves.toMatchObject({ createdBy: null });
  });

  it('shows a result to its owner and administrators only; anyone else gets what an unknown id gets', async () => {
    const mine = await analyzeUploadFor(dev, upload(), 'catalogd-rollout.tar.gz', deps);
    expect(mine.createdBy).toBe('dev');
    expect(await resultFor(dev, mine.id, deps)).toBe(mine);
    expect(await resultFor(admin, mine.id, deps)).toBe(mine);
    expect(await resultFor({ kind: 'local' }, mine.id, deps)).toBe(mine);
    expect(await resultFor(sre, mine.id, deps)).toBeUndefined();
    expect(await resultFor(sre, 'no-such-id', deps)).toBeUndefined();
    const others = await analyzeUploadFor(sre, upload(), 'x.tar.gz', deps);
    expect(await resultFor(dev, others.id, deps)).toBeUndefined();
  });

  it('freezes a result into an incident under its own must-gather id, created by the viewer', async () => {
    const result = await analyzeUploadFor(dev, upload(), 'catalogd-rollout', deps);
    // The archive says it is the fleet's catalogd-rollout cluster; its result is not.
    expect(result.health.cluster.id).toBe(`must-gather:${result.id}`);
    await expect(mustGatherIncidentFor(sre, result.id, deps)).resolves.toBeUndefined();
    const created = await mustGatherIncidentFor(dev, result.id, deps);
    const incident = await getIncidentRepository().get(created!.id);
    expect(incident).toMatchObject({ createdBy: 'dev', cluster: { id: `must-gather:${result.id}` } });
    expect(isMustGatherClusterId(incident!.cluster.id)).toBe(true);
  });

  it('runs one analysis per user at a time and a bounded number at once, then rate-limits starts', async () => {
    const admission = new AnalysisAdmission(2, { capacity: 2, refillPerSecond: 1 / 3600 }, () => 0);
    const first = admission.enter('dev');
    expect(first.ok).toBe(true);
    expect(admission.enter('dev')).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
    const second = admission.enter('sre');
    expect(admission.enter('admin')).toMatchObject({ ok: false, message: expect.stringContaining('already') });
    if (first.ok) first.release();
    if (second.ok) second.release();
    expect(admission.size).toBe(0);
    const third = admission.enter('dev');
    if (third.ok) third.release();
    expect(admission.enter('dev')).toMatchObject({ ok: false, retryAfterSeconds: 3600 });
    expect(admission.enter('sre').ok).toBe(true);
    // The local operator's starts are not rate-limited, only bounded in concurrency.
    for (let i = 0; i < 5; i++) {
      const local = admission.enter('local', false);
      expect(local.ok).toBe(true);
      if (local.ok) local.release();
    }
  });
});
