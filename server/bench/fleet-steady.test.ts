/**
 * The fleet bench's pod-log GETs per second: counted on the member API servers, the requests the embedded hub's
 * cluster-proxy hands them in process included, over whole log-poll periods of the dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredLogs, DETECTORS } from '@/lib/health/registry';
import { LogPoller } from '@/server/engine/log-poller';
import { createKubeConnection } from '@/server/kube/kube-connection';
import type { ClusterConnection } from '@/server/kube/connection';
import { startFleet, type Fleet } from '@/server/simulator/fleet';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { fleetMembers, startHub, type EmbeddedHub } from '@/server/simulator/hub/serve-hub';
import { until } from '@/server/testing/reflector-harness';
import { logPollPeriodMs, logPollsOver, logPollWindowMs } from './fleet-steady';

describe('the window the fleet bench counts log polls over', () => {
  it.each([
    [40, 10_000, 30_000],
    [500, 25_000, 50_000],
    [3_500, 175_000, 175_000],
  ])('at %i clusters: the dashboard polls every %i ms, counted over %i ms', (clusters, period, window) => {
    expect(logPollPeriodMs(clusters)).toBe(period);
    expect(logPollWindowMs(logPollPeriodMs(clusters))).toBe(window);
  });

  it('is a whole number of periods, the minimum at least', () => {
    for (const [period, minimum] of [
      [1_000, 2_500],
      [10_000, 30_000],
      [175_000, 30_000],
      [40_000, 40_000],
    ]) {
      const window = logPollWindowMs(period, minimum);
      expect(window % period, `${period} ms over ${minimum} ms`).toBe(0);
      expect(window).toBeGreaterThanOrEqual(Math.max(period, minimum));
      expect(window - period).toBeLessThan(minimum);
    }
  });
});

describe("a member's log polls through the hub's in-process cluster-proxy", () => {
  const PERIOD_MS = 2_000;
  let fleet: Fleet;
  let hub: EmbeddedHub;
  let dir = '';
  let connection: ClusterConnection | undefined;
  let poller: LogPoller | undefined;

  beforeAll(async () => {
    fleet = await startFleet({ scenarios: ['update-in-progress', 'steady'], speed: 1, listen: false });
    hub = await startHub(fleetMembers(fleet));
    dir = mkdtempSync(join(tmpdir(), 'fleet-steady-'));
  }, 60_000);
  afterAll(async () => {
    poller?.stop();
    connection?.close();
    await hub?.close();
    await fleet?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('count where the member serves them, once each, a poll per period', async () => {
    const [updating, steady] = fleet.clusters;
    const kubeconfig = join(dir, 'member.yaml');
    writeFileSync(
      kubeconfig,
      buildKubeconfig([
        {
          name: updating.id,
          server: `${hub.proxy.url}/${updating.id}`,
          caData: hub.proxy.caData,
          token: hub.controller.currentToken(updating.id)!,
        },
      ]),
      { mode: 0o600 },
    );
    expect(fleet.listens).toBe(false);
    const through = createKubeConnection(kubeconfig, updating.id);
    connection = through;
    // The log GETs the dashboard's side saw answered, to hold the member's count against.
    let answered = 0;
    const counting: ClusterConnection = {
      ...through,
      getText: async (path, options) => {
        const answer = await through.getText(path, options);
        if (answer.status === 200 && /\/pods\/[^/]+\/log$/.test(new URL(path, 'https://x.invalid').pathname))
          answered += 1;
        return answer;
      },
    };
    // The dashboard's own log needs: the cluster-version operator's is the one an updating member answers.
    poller = new LogPoller(counting, requiredLogs(DETECTORS), () => undefined, PERIOD_MS);
    const gets = () => updating.server.stats.snapshot().requests['pods/log:get'] ?? 0;
    poller.start();
    await until('the first log poll', () => answered > 0, 20_000);

    // Every poll of the window's three periods comes after the window opened: it sees the next two or three.
    const { perSecond, seconds } = await logPollsOver(fleet.clusters, logPollWindowMs(PERIOD_MS, 5_000));
    expect(seconds).toBeGreaterThanOrEqual(6);
    expect(Math.round(perSecond * seconds)).toBeGreaterThanOrEqual(2);
    expect(Math.round(perSecond * seconds)).toBeLessThanOrEqual(4);

    poller.stop();
    await until('the last poll answered', () => gets() === answered, 10_000);
    expect(gets()).toBeGreaterThanOrEqual(3);
    expect(steady.server.stats.snapshot().requests['pods/log:get'] ?? 0).toBe(0);
  }, 60_000);
});
