import { expect, test } from './fixtures';

test.describe('operability endpoints', () => {
  test('/healthz answers, /readyz turns ready once the fleet synced, /metrics exposes the service', async ({
    request,
  }) => {
    const health = await request.get('/healthz');
    expect(health.status()).toBe(200);
    expect(await health.text()).toBe('ok\n');
    await expect.poll(async () => (await request.get('/readyz')).status(), { timeout: 60_000 }).toBe(200);
    const ready = await (await request.get('/readyz')).json();
    expect(ready).toMatchObject({ ready: true, waiting: [] });
    expect(ready.clusters).toBeGreaterThanOrEqual(7);
    const metrics = await request.get('/metrics');
    expect(metrics.status()).toBe(200);
    expect(metrics.headers()['content-type']).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toMatch(/^update_health_watch_sources\{status="synced"\} [1-9]\d*$/m);
    expect(text).toMatch(/^update_health_watch_events_total [1-9]\d*$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^update_health_detector_evaluation_seconds_count [1-9]\d*$/m);
    expect(text).toMatch(
      /^update_health_http_request_duration_seconds_count\{route="\/readyz",method="GET",code="200"\} [1-9]\d*$/m,
    );
  });
});
