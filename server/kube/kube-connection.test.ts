import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { createKubeConnection } from './kube-connection';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createKubeConnection', () => {
  it('GETs text with query parameters (pod lists by label, log tails) and learns the cluster clock', async () => {
    server = await startTestServer();
    const { client, logs, clock } = server.cluster;
    for (const name of ['cvo-a', 'other']) {
      client.create('pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: 'openshift-cluster-version',
          labels: { 'k8s-app': name === 'cvo-a' ? 'cluster-version-operator' : 'x' },
        },
        spec: { containers: [{ name: 'cluster-version-operator', image: 'x' }] },
      });
    }
    for (let line = 1; line <= 5; line += 1)
      logs.append('openshift-cluster-version', 'cvo-a', 'cluster-version-operator', `line ${line}`);
    const connection = createKubeConnection(server.kubeconfigPath('reader'), 'sim');
    try {
      const pods = await connection.getText(
        '/api/v1/namespaces/openshift-cluster-version/pods?labelSelector=k8s-app%3Dcluster-version-operator',
      );
      expect(pods.status).toBe(200);
      expect(
        (JSON.parse(pods.body) as { items: { metadata: { name: string } }[] }).items.map((pod) => pod.metadata.name),
      ).toEqual(['cvo-a']);
      const log = await connection.getText(
        '/api/v1/namespaces/openshift-cluster-version/pods/cvo-a/log?container=cluster-version-operator&tailLines=2',
      );
      expect(log).toEqual({ status: 200, body: 'line 4\nline 5' });
      expect((await connection.getText('/api/v1/namespaces/openshift-cluster-version/pods/missing/log')).status).toBe(
        404,
      );
      expect(Math.abs(connection.now() - clock.now())).toBeLessThan(2_000);
    } finally {
      connection.close();
    }
  });
});
