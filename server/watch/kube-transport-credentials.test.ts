import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { testPod } from '@/server/simulator/test-objects';
import { KubeTransport } from './kube-transport';
import {
  cleanupAfterEach,
  observe,
  startSim,
  traceStatus,
  until,
  type SimHarness,
} from '@/server/testing/reflector-harness';

describe('a transport whose credentials come from a provider (rotating tokens)', () => {
  let sim: SimHarness;
  beforeAll(async () => {
    sim = await startSim({ pods: 2 });
  });
  afterAll(async () => {
    await sim.close();
  });

  const issue = () => sim.served.oauth.issueToken({ user: 'admin', scopes: ['user:full'], clientId: 'test' }).token;

  it('a rotated token: watches resume from their resourceVersion, no relist, never unauthorized', async () => {
    let current = issue();
    // Like a plugin's cache: the token it handed out last, until the server rejects it.
    let handedOut = current;
    const asked: boolean[] = [];
    const transport = KubeTransport.forEndpoint(
      { server: sim.served.url, caData: sim.served.caData },
      {
        credentials: async ({ rejected }) => {
          asked.push(rejected);
          if (rejected) handedOut = current;
          return { token: handedOut };
        },
      },
    );
    // Watches that end every second reconnect often, so each rotation meets a new request.
    const o = observe(transport, { watchTimeoutSeconds: { min: 1, max: 1 } });
    const trace = traceStatus(o.reflector);
    o.reflector.start();
    expect(await o.reflector.waitForSync(5_000)).toBe(true);
    for (let rotation = 0; rotation < 3; rotation += 1) {
      const old = current;
      current = issue();
      sim.served.oauth.revoke(old);
      const watchesBefore = o.watches().length;
      await until('a watch with the new token', () => o.watches().length >= watchesBefore + 2, 8_000);
      sim.cluster.client.create('pods', testPod('ns', `after-rotation-${rotation}`));
      await until('the new pod', () => o.reflector.cache.size === 3 + rotation, 8_000);
    }
    trace.stop();
    expect(trace.statuses).toEqual(['pending', 'synced']);
    expect(o.reflector.state().counters).toMatchObject({ lists: 1, relists: 0 });
    expect(asked.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    o.reflector.stop();
    transport.close();
  });

  it('applies the kubeconfig once while the provider gives the tokens, and each request gets the current token', async () => {
    const applied = vi.spyOn(KubeConfig.prototype, 'applyToHTTPSOptions');
    let token = issue();
    const transport = KubeTransport.forEndpoint(
      { server: sim.served.url, caData: sim.served.caData },
      { credentials: async () => ({ token }) },
    );
    try {
      const before = applied.mock.calls.length;
      for (let i = 0; i < 5; i += 1) await transport.getJson('/api/v1/namespaces/ns/pods');
      expect(applied.mock.calls.length - before).toBe(1);
      // A token the provider changed is the one sent: only the kubeconfig's part is kept.
      const old = token;
      token = issue();
      sim.served.oauth.revoke(old);
      await expect(transport.getJson('/api/v1/namespaces/ns/pods')).resolves.toBeTruthy();
    } finally {
      applied.mockRestore();
      transport.close();
    }
  });

  it('a provider that keeps failing shows unauthorized with its reason', async () => {
    const transport = KubeTransport.forEndpoint(
      { server: sim.served.url, caData: sim.served.caData },
      { credentials: async () => Promise.reject(new Error('token Secret cluster1-update-health not found')) },
    );
    const o = observe(transport);
    o.reflector.start();
    await until('unauthorized', () => o.reflector.state().status === 'unauthorized');
    expect(o.reflector.state().error?.message).toMatch(/token Secret cluster1-update-health not found/);
    o.reflector.stop();
    transport.close();
  });

  it('a revoked token with no fresh one behind it still answers 401 after one retry', async () => {
    const token = issue();
    sim.served.oauth.revoke(token);
    const asked: boolean[] = [];
    const transport = KubeTransport.forEndpoint(
      { server: sim.served.url, caData: sim.served.caData },
      { credentials: async ({ rejected }) => (asked.push(rejected), { token }) },
    );
    await expect(transport.getJson('/api/v1/namespaces')).rejects.toMatchObject({ code: 401 });
    expect(asked).toEqual([false, true]);
    transport.close();
  });
});

describe.each([
  ['HTTP/1.1', false],
  ['HTTP/2', undefined],
] as const)('a kubeconfig user without a token or password, over %s', (_, http2) => {
  let sim: SimHarness | undefined;
  cleanupAfterEach(() => ({ sim }));

  it('sends no Authorization header: the server answers, here 401', async () => {
    sim = await startSim();
    const transport = KubeTransport.forEndpoint({ server: sim.served.url, caData: sim.served.caData }, { http2 });
    try {
      await expect(transport.getJson('/api/v1/namespaces')).rejects.toMatchObject({ name: 'KubeApiError', code: 401 });
      await expect(transport.getJson('/api/v1/namespaces')).rejects.toMatchObject({ name: 'KubeApiError', code: 401 });
    } finally {
      transport.close();
    }
  });
});
