import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { FindingRecorder } from './finding-recorder';
import { SqliteFindingHistory } from './sqlite-finding-history';

const dir = mkdtempSync(join(tmpdir(), 'finding-recorder-'));
const history = new SqliteFindingHistory(join(dir, 'incidents.sqlite'));
afterAll(async () => {
  await history.close();
  rmSync(dir, { recursive: true, force: true });
});

const T = Date.parse('2026-11-25T10:00:00.000Z');
const finding = (since: number): FindingDto => ({
  id: 'install-settling:ClusterExtension//argocd',
  detector: 'install-settling',
  severity: 'critical',
  subject: { kind: 'ClusterExtension', name: 'argocd' },
  title: 'argocd never settles',
  summary: 'Installed flips between True and False',
  evidence: [],
  remediation: [],
  since: new Date(since).toISOString(),
});

async function started(): Promise<FindingRecorder> {
  const recorder = new FindingRecorder(history, 'c1', { report: (error) => expect.fail(String(error)) });
  recorder.start();
  await expect.poll(() => recorder.ready()).toBe(true);
  return recorder;
}

describe('a cluster’s finding recorder', () => {
  it('gives a finding its stored opening after a restart, when the detector now sees a later onset', async () => {
    const first = await started();
    expect(first.observe([finding(T)], T + 60_000, true)[0].since).toBe(new Date(T).toISOString());
    await first.idle();
    first.stop();

    // After a restart the root cause's early transitions are gone from memory: the detector's onset is later.
    const second = await started();
    const published = second.observe([finding(T + 30 * 60_000)], T + 31 * 60_000, true);
    expect(published[0].since).toBe(new Date(T).toISOString());
    await second.idle();
    expect((await history.events('c1', 0, T * 2)).map((event) => event.kind)).toEqual(['opened']);
  });

  it('resolves what an evaluation does not see only when that evaluation is complete', async () => {
    const recorder = await started();
    recorder.observe([], T + 40 * 60_000, false);
    await recorder.idle();
    expect((await history.openStates('c1')).map((state) => state.findingId)).toHaveLength(1);
    recorder.observe([], T + 41 * 60_000, true);
    await recorder.idle();
    expect(await history.openStates('c1')).toEqual([]);
    expect((await history.events('c1', 0, T * 2)).map((event) => [event.kind, event.at])).toEqual([
      ['opened', T],
      ['resolved', T + 41 * 60_000],
    ]);
  });
});
