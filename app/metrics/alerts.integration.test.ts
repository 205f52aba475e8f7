/**
 * The page an SRE gets, end to end with the real things: the embedded fleet plays two clusters, the dashboard's fleet
 * (started from the environment as in production) publishes health, its /metrics route handler serves the findings
 * as series, Debian's Prometheus scrapes it every second and evaluates the alert rules rendered from
 * deploy/openshift's PrometheusRule, and Debian's Alertmanager receives the alerts. The cross-minor rollback's
 * critical finding must reach Alertmanager's API with its link; high-density-drain's pod-setup alert must fire during
 * the drain and resolve once pod batching brings p99 back. The rules' `for:` are shortened (5m → 1s), nothing else.
 */
import { NextRequest } from 'next/server';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getMetrics } from './route';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { getFleet } from '@/server/engine/fleet';
import { alertRulesFile } from '@/server/deploy/alert-rules';
import { startFleet, type Fleet as SimFleet, type FleetCluster } from '@/server/simulator/fleet';
import { ROLLBACK_REJECTIONS_FROM_MS } from '@/server/simulator/scenarios/cross-minor-rollback';
import { HD_BATCHING_AT_MS, HD_DRAIN_AT_MS } from '@/server/simulator/scenarios/high-density-drain';
import { freePort } from '@/server/testing/free-port';

const PROMETHEUS = '/usr/bin/prometheus';
const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
const PUBLIC_URL = 'https://update-health.apps.example.test';
const MINUTE = 60_000;

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  endsAt: string;
  status: { state: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` returns a value (polling), or fails with what `explain` says was last seen. */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  explain: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s\n${explain()}`);
    await sleep(200);
  }
}

/** Starts a binary on loopback and waits until its readiness URL answers. */
async function startDaemon(bin: string, args: string[], ready: string, log: { text: string }): Promise<ChildProcess> {
  if (!existsSync(bin)) {
    throw new Error(
      `${bin} is missing: install the Debian packages "prometheus" and "prometheus-alertmanager" ` +
        '(apt-get install -y --no-install-recommends prometheus prometheus-alertmanager, or run .ci/run)',
    );
  }
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
  await until(
    `${bin} ready`,
    async () => ((await fetch(ready)).ok ? true : undefined),
    20_000,
    () => `exit ${child.exitCode}\n${log.text.slice(-2000)}`,
  );
  return child;
}

describe('alerts from the dashboard through real Prometheus and Alertmanager', () => {
  let sim: SimFleet;
  let dir: string;
  let metricsServer: Server;
  let prometheus: ChildProcess | undefined;
  let alertmanager: ChildProcess | undefined;
  let amUrl: string;
  let promUrl: string;
  const promLog = { text: '' };
  const amLog = { text: '' };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'uh-alerts-'));
    sim = await startFleet({ scenarios: ['cross-minor-rollback', 'high-density-drain'], speed: 1, tickMs: 50 });
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig('reader'));
    // The production path: getFleet() reads these through server/env.ts.
    process.env.UPDATE_HEALTH_KUBECONFIG = join(dir, 'kubeconfig');
    process.env.UPDATE_HEALTH_EMBEDDED = '1';
    process.env.UPDATE_HEALTH_PUBLIC_URL = PUBLIC_URL;
    getFleet();

    // /metrics as the edge hands it to the route: the local viewer of `--auth none`.
    metricsServer = createServer((req, res) => {
      const request = new NextRequest(`http://127.0.0.1${req.url}`, {
        headers: { [VIEWER_HEADER]: encodeViewer({ kind: 'local' }) },
      });
      void getMetrics(request).then(async (response) => {
        res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'text/plain' });
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
    const metricsPort = await freePort();
    await new Promise<void>((resolve) => metricsServer.listen(metricsPort, '127.0.0.1', resolve));

    const amPort = await freePort();
    amUrl = `http://127.0.0.1:${amPort}`;
    writeFileSync(
      join(dir, 'alertmanager.yml'),
      [
        'route:',
        '  receiver: team',
        '  group_by: [alertname, cluster, detector]',
        '  group_wait: 1s',
        '  group_interval: 1s',
        '  repeat_interval: 1h',
        'receivers:',
        '  - name: team',
        '',
      ].join('\n'),
    );
    alertmanager = await startDaemon(
      ALERTMANAGER,
      [
        `--config.file=${join(dir, 'alertmanager.yml')}`,
        `--storage.path=${join(dir, 'am')}`,
        `--web.listen-address=127.0.0.1:${amPort}`,
        '--cluster.listen-address=',
        '--log.level=warn',
      ],
      `${amUrl}/-/ready`,
      amLog,
    );

    writeFileSync(join(dir, 'rules.yml'), alertRulesFile({ forScale: 1 / 300 }));
    const promPort = await freePort();
    promUrl = `http://127.0.0.1:${promPort}`;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }',
        `rule_files: [${join(dir, 'rules.yml')}]`,
        'alerting:',
        `  alertmanagers: [{ static_configs: [{ targets: ['127.0.0.1:${amPort}'] }] }]`,
        'scrape_configs:',
        '  - job_name: update-health',
        `    static_configs: [{ targets: ['127.0.0.1:${metricsPort}'] }]`,
        '',
      ].join('\n'),
    );
    prometheus = await startDaemon(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'prom')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        '--rules.alert.resend-delay=1s',
        '--log.level=warn',
      ],
      `${promUrl}/-/ready`,
      promLog,
    );
  }, 60_000);

  afterAll(async () => {
    getFleet().stop();
    prometheus?.kill('SIGTERM');
    alertmanager?.kill('SIGTERM');
    await new Promise((resolve) => metricsServer?.close(resolve));
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The alerts Alertmanager holds as active now. */
  async function activeAlerts(): Promise<AmAlert[]> {
    const alerts = (await (await fetch(`${amUrl}/api/v2/alerts`)).json()) as AmAlert[];
    return alerts.filter((a) => a.status.state === 'active' && Date.parse(a.endsAt) > Date.now());
  }
  const explain = () =>
    `Prometheus:\n${promLog.text.slice(-1500)}\nAlertmanager:\n${amLog.text.slice(-1500)}\n` +
    `findings on /metrics: ${JSON.stringify(
      getFleet()
        .members()
        .map((m) => [m.id, m.health().findings.map((f) => `${f.severity} ${f.id}`)]),
    )}`;
  const cluster = (name: string): FleetCluster => sim.clusters.find((c) => c.id === name)!;

  it('pages the rollback critical with its link, and fires then resolves the pod-setup alert', async () => {
    await until(
      'the fleet synced',
      async () => (getFleet().unsettled().length === 0 ? true : undefined),
      20_000,
      explain,
    );

    // Both stories run at once: the rollback to its rejected status writes, the drain at 30× into its slow window.
    const rollback = cluster('cross-minor-rollback');
    const drain = cluster('high-density-drain');
    drain.driver.setSpeed(30);
    const start = { rollback: rollback.cluster.clock.now(), drain: drain.cluster.clock.now() };
    while (rollback.cluster.clock.now() < start.rollback + ROLLBACK_REJECTIONS_FROM_MS + MINUTE) {
      rollback.cluster.clock.advance(20_000);
      if (drain.cluster.clock.now() < start.drain + HD_DRAIN_AT_MS + 10 * MINUTE) drain.cluster.clock.advance(40_000);
      await sleep(25);
    }

    const critical = await until(
      'UpdateHealthCritical for the rollback in Alertmanager',
      async () =>
        (await activeAlerts()).find(
          (a) =>
            a.labels.alertname === 'UpdateHealthCritical' &&
            a.labels.cluster === 'cross-minor-rollback' &&
            a.labels.detector === 'status-write-rejection',
        ),
      30_000,
      explain,
    );
    expect(critical.labels).toMatchObject({ severity: 'critical', failure_mode: 'B', public_url: PUBLIC_URL });
    expect(critical.annotations.runbook_url).toBe(
      `${PUBLIC_URL}/clusters/cross-minor-rollback?panel=status-write-rejection&finding=status-write-rejection`,
    );
    expect(critical.annotations.summary).toBe(
      'Cluster cross-minor-rollback has a critical status-write-rejection finding.',
    );

    const isPodSetup = (a: AmAlert) =>
      a.labels.alertname === 'UpdateHealthCritical' &&
      a.labels.cluster === 'high-density-drain' &&
      a.labels.detector === 'pod-setup-latency';
    const podSetup = await until(
      'the pod-setup alert during the drain',
      async () => (await activeAlerts()).find(isPodSetup),
      30_000,
      explain,
    );
    expect(podSetup.labels.failure_mode).toBe('D');
    expect(podSetup.annotations.runbook_url).toBe(
      `${PUBLIC_URL}/clusters/high-density-drain?panel=pod-setup-latency&finding=pod-setup-latency`,
    );

    // Pod batching is enabled at 80 min: go there (in steps, so scrapes keep being answered); the finding clears once
    // the rate window holds only batched pods, and with it the alert. A scrape that fails would end the series too,
    // so the finding is waited on first: the alert must resolve because the finding did.
    const batching = start.drain + HD_BATCHING_AT_MS + MINUTE;
    while (drain.cluster.clock.now() < batching) {
      drain.cluster.clock.advance(MINUTE);
      await sleep(10);
    }
    const criticalLatency = () =>
      getFleet()
        .get('high-density-drain')!
        .health()
        .findings.filter((f) => f.detector === 'pod-setup-latency' && f.severity === 'critical');
    await until(
      'the pod-setup finding cleared after batching',
      async () => (criticalLatency().length === 0 ? true : undefined),
      40_000,
      explain,
    );
    await until(
      'the pod-setup alert resolved',
      async () => ((await activeAlerts()).some(isPodSetup) ? undefined : true),
      20_000,
      explain,
    );
    expect(criticalLatency()).toEqual([]);
    // The rollback's critical stands: resolving one alert did not drop the others.
    expect((await activeAlerts()).some((a) => a.labels.cluster === 'cross-minor-rollback')).toBe(true);
  }, 120_000);
});
