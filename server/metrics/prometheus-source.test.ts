import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsConfigError, parsePrometheusConfig, prometheusFor } from './config';
import { PrometheusSource, quantileQuery } from './prometheus-source';

/** A fake Prometheus: no /api/v1/alerts (404, like some proxies), ALERTS via query, and a failing query_range. */
function fakePrometheus(): Promise<{ server: Server; url: string; queries: string[] }> {
  const queries: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = url.searchParams.get('query') ?? '';
    queries.push(`${url.pathname} ${query}`);
    res.setHeader('Content-Type', 'application/json');
    if (url.pathname === '/api/v1/alerts') return res.writeHead(404).end('404 page not found');
    if (url.pathname === '/api/v1/query_range') {
      return res.writeHead(422).end(
        JSON.stringify({
          status: 'error',
          errorType: 'execution',
          error: 'exceeded maximum resolution of 11,000 points per timeseries',
        }),
      );
    }
    const labels = {
      alertname: 'PodDisruptionBudgetAtLimit',
      namespace: 'payments',
      poddisruptionbudget: 'payments-api',
      severity: 'warning',
    };
    const result = query.startsWith('ALERTS_FOR_STATE')
      ? [{ metric: { __name__: 'ALERTS_FOR_STATE', ...labels }, value: [1_800_000_000, '1799990000'] }]
      : query.startsWith('ALERTS')
        ? [{ metric: { __name__: 'ALERTS', alertstate: 'firing', ...labels }, value: [1_800_000_000, '1'] }]
        : [];
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queries }),
    ),
  );
}

describe('PrometheusSource', () => {
  let fake: Awaited<ReturnType<typeof fakePrometheus>>;
  beforeAll(async () => {
    fake = await fakePrometheus();
  });
  afterAll(() => {
    fake.server.close();
  });
  const target = (url: string, allowLoopback = true) => ({
    url,
    allowLoopback,
    scrapeIntervalSeconds: 30,
    nodeLabel: 'node',
  });

  it('reports Prometheus errors and refused URLs as data', async () => {
    const dto = await new PrometheusSource(target(fake.url), { now: () => 5_000_000 }).podSetupLatency('c', {
      from: 1_000_000,
      to: 5_000_000,
      plotPx: 500,
    });
    expect(dto).toMatchObject({ source: 'prometheus', step: 30, window: 120, quantiles: { p99: [] } });
    expect(dto.error).toMatch(/execution: exceeded maximum resolution/);
    expect(fake.queries).toContain(`/api/v1/query_range ${quantileQuery(0.99, 120)}`);
    expect(fake.queries).toContain(`/api/v1/query_range ${quantileQuery(0.5, 120, 'node')}`);

    const refused = await new PrometheusSource(target('http://169.254.169.254/'), { now: () => 1 }).podSetupLatency(
      'c',
      { from: 0, to: 1 },
    );
    expect(refused.error).toMatch(/link-local/);
    const loopback = await new PrometheusSource(target(fake.url, false), { now: () => 1 }).podSetupLatency('c', {
      from: 0,
      to: 1,
    });
    expect(loopback.error).toMatch(/loopback/);
  });

  it('falls back to ALERTS and ALERTS_FOR_STATE when /api/v1/alerts is not served', async () => {
    const source = new PrometheusSource(target(fake.url), { now: () => 1 }, { pollMs: 60_000 });
    source.start();
    await expect.poll(() => source.alerts()).toBeDefined();
    source.stop();
    expect(source.alerts()).toEqual([
      {
        name: 'PodDisruptionBudgetAtLimit',
        state: 'firing',
        severity: 'warning',
        startsAt: new Date(1_799_990_000_000).toISOString(),
        labels: {
          alertname: 'PodDisruptionBudgetAtLimit',
          namespace: 'payments',
          poddisruptionbudget: 'payments-api',
          severity: 'warning',
        },
        annotations: {},
      },
    ]);
  });
});

describe('UPDATE_HEALTH_PROMETHEUS', () => {
  it('parses per-cluster entries with defaults and a "*" fallback', () => {
    const config = parsePrometheusConfig(
      '{"prod": {"url": "https://thanos.example.com", "tokenFile": "/t"}, "*": {"url": "http://127.0.0.1:9090", "allowLoopback": true}}',
    );
    expect(prometheusFor(config, 'prod')).toEqual({
      url: 'https://thanos.example.com',
      tokenFile: '/t',
      allowLoopback: false,
      scrapeIntervalSeconds: 30,
      nodeLabel: 'node',
    });
    expect(prometheusFor(config, 'other')?.url).toBe('http://127.0.0.1:9090');
    expect(parsePrometheusConfig(undefined)).toEqual({});
  });

  it.each([
    'not json',
    '{"a": {}}',
    '{"a": {"url": "x", "token": "inline secrets are not accepted"}}',
    '{"a": {"url": "x", "scrapeIntervalSeconds": -1}}',
  ])('rejects %s', (raw) => {
    expect(() => parsePrometheusConfig(raw)).toThrow(MetricsConfigError);
  });
});
