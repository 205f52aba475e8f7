/**
 * The metrics listener as platform Prometheus meets it: mutual TLS with a client certificate issued by the cluster's
 * client CA to prometheus-k8s is admitted to GET /metrics; no certificate, a certificate from another CA, or another
 * name is refused with 401/403 and no metrics; a rotated client CA is trusted after a reload; the client CA is read
 * from kube-system/extension-apiserver-authentication on a cluster (the embedded API server).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PROMETHEUS } from '@/server/auth/client-certificate';
import {
  CLIENT_CA_CONFIGMAP_PATH,
  CLIENT_CA_KEY,
  clientCaFromCluster,
  clientCaFromFile,
} from '@/server/auth/metrics-client-ca';
import { startTestServer } from '@/server/simulator/test-harness';
import { exposeServiceMetrics } from '@/server/engine/metrics-exposition';
import { startMetricsListener, type MetricsListener } from './metrics-listener';

const dir = mkdtempSync(join(tmpdir(), 'metrics-listener-'));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
const read = (file: string) => readFileSync(join(dir, file), 'utf8');

/** A CA, then a leaf for `cn` signed by it with the given extended key usage. */
function makeCa(name: string): void {
  openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`],
    ...['-days', '1', '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE'],
    ...['-addext', 'keyUsage=critical,keyCertSign'],
  );
}
function makeLeaf(
  name: string,
  ca: string,
  subject: string,
  usage: string,
  san?: string,
): { cert: string; key: string } {
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
  writeFileSync(
    join(dir, `${name}.ext`),
    `extendedKeyUsage=${usage}\nbasicConstraints=CA:FALSE\n${san ? `subjectAltName=${san}\n` : ''}`,
  );
  openssl(
    ...['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial'],
    ...['-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`],
  );
  return { cert: read(`${name}.crt`), key: read(`${name}.key`) };
}

interface Client {
  cert?: string;
  key?: string;
}
function get(port: number, path: string, client: Client, method = 'GET') {
  return new Promise<{ status: number; body: string; type?: string }>((resolve, reject) => {
    const req = request(
      { host: 'localhost', port, path, method, ca: read('serving-ca.crt'), ...client, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'] }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const caFile = join(dir, 'client-ca.pem');
let prometheus: Client;
let otherName: Client;
let rogue: Client;
let rotated: Client;
let listener: MetricsListener | undefined;
const warnings: string[] = [];

beforeAll(() => {
  makeCa('serving-ca');
  makeLeaf('serving', 'serving-ca', '/CN=update-health.update-health.svc', 'serverAuth', 'DNS:localhost');
  makeCa('client-ca');
  makeCa('next-client-ca');
  makeCa('rogue-ca');
  prometheus = makeLeaf('prometheus', 'client-ca', `/O=system:serviceaccounts/CN=${PLATFORM_PROMETHEUS}`, 'clientAuth');
  otherName = makeLeaf('admin', 'client-ca', '/O=system:masters/CN=system:admin', 'clientAuth');
  rogue = makeLeaf('rogue', 'rogue-ca', `/CN=${PLATFORM_PROMETHEUS}`, 'clientAuth');
  rotated = makeLeaf('rotated', 'next-client-ca', `/CN=${PLATFORM_PROMETHEUS}`, 'clientAuth');
  writeFileSync(caFile, read('client-ca.crt'));
});

afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () =>
  startMetricsListener({
    host: '127.0.0.1',
    port: 0,
    certFile: join(dir, 'serving.crt'),
    keyFile: join(dir, 'serving.key'),
    clientCa: clientCaFromFile(caFile),
    allowed: [PLATFORM_PROMETHEUS],
    metrics: exposeServiceMetrics,
    reloadMs: 3_600_000,
    warn: (message) => warnings.push(message),
  });

describe('metrics listener', () => {
  it('serves /metrics to platform Prometheus and refuses everyone else before any metric is read', async () => {
    listener = await start();
    const ok = await get(listener.port, '/metrics', prometheus);
    expect(ok.status).toBe(200);
    expect(ok.type).toContain('text/plain');
    expect(ok.body).toContain('process_cpu_seconds_total');

    const anonymous = await get(listener.port, '/metrics', {});
    expect(anonymous).toMatchObject({ status: 401 });
    expect(JSON.parse(anonymous.body)).toEqual({
      error: { code: 'unauthorized', message: 'a client certificate is required' },
    });
    const untrusted = await get(listener.port, '/metrics', rogue);
    expect(untrusted.status).toBe(401);
    expect(untrusted.body).toContain('the client certificate is not trusted');
    expect(untrusted.body).not.toContain('process_cpu_seconds_total');
    const admin = await get(listener.port, '/metrics', otherName);
    expect(admin.status).toBe(403);
    expect(JSON.parse(admin.body).error.message).toBe('"system:admin" may not read /metrics here');

    // Nothing but GET/HEAD /metrics, even for Prometheus; and nothing at all for a caller without a certificate.
    expect((await get(listener.port, '/api/clusters', prometheus)).status).toBe(404);
    expect((await get(listener.port, '/api/clusters', {})).status).toBe(401);
    expect((await get(listener.port, '/metrics', prometheus, 'POST')).status).toBe(405);
    const head = await get(listener.port, '/metrics', prometheus, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
  });

  it('trusts a rotated client CA after a reload, and keeps the last good one while the source fails', async () => {
    listener = await start();
    expect((await get(listener.port, '/metrics', rotated)).status).toBe(401);
    // The signer rotates: for a while both CAs are in the bundle, then only the new one.
    writeFileSync(caFile, read('client-ca.crt') + read('next-client-ca.crt'));
    await listener.reload();
    expect((await get(listener.port, '/metrics', rotated)).status).toBe(200);
    expect((await get(listener.port, '/metrics', prometheus)).status).toBe(200);
    writeFileSync(caFile, read('next-client-ca.crt'));
    await listener.reload();
    expect((await get(listener.port, '/metrics', prometheus)).status).toBe(401);

    writeFileSync(caFile, 'not a certificate');
    await listener.reload();
    expect(warnings.at(-1)).toContain('holds no PEM certificate; still trusting the previous client CA');
    expect((await get(listener.port, '/metrics', rotated)).status).toBe(200);
    writeFileSync(caFile, read('client-ca.crt'));
  });

  it('admits nobody while the client CA cannot be read, then admits Prometheus once it can', async () => {
    rmSync(caFile);
    listener = await start();
    expect(warnings.at(-1)).toMatch(/cannot read the TLS client CA .*; no scrape is admitted/);
    const refused = await get(listener.port, '/metrics', prometheus);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error.code).toBe('client_ca_unavailable');
    writeFileSync(caFile, read('client-ca.crt'));
    await listener.reload();
    expect((await get(listener.port, '/metrics', prometheus)).status).toBe(200);
  });

  it("reads the API server's client CA from kube-system/extension-apiserver-authentication", async () => {
    const test = await startTestServer();
    try {
      const source = clientCaFromCluster(test.kubeconfigPath('reader'), 'sim');
      await expect(source()).rejects.toMatchObject({ name: 'ClientCaError' });
      test.cluster.as('kubectl').create('configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: CLIENT_CA_CONFIGMAP_PATH.split('/').at(-1)!, namespace: 'kube-system' },
        data: { [CLIENT_CA_KEY]: read('client-ca.crt') },
      });
      expect(await source()).toBe(read('client-ca.crt'));
    } finally {
      await test.close();
    }
  });
});
