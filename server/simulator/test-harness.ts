import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveCluster, type ServeClusterOptions, type ServedCluster } from './api-server';
import type { Identity } from './auth';
import { createSimulatedCluster, type SimulatedCluster, type SimulatedClusterOptions } from './core';

/** Test support: a simulated cluster served over HTTPS with kubeconfigs per identity in a temp dir. */
export interface TestServer {
  cluster: SimulatedCluster;
  served: ServedCluster;
  dir: string;
  kubeconfigPath(identity: Identity): string;
  /** Runs kubectl with --kubeconfig/--cache-dir set; never throws on a non-zero exit. */
  kubectl(
    identity: Identity,
    args: string[],
    input?: string,
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Spawns a long-running kubectl (e.g. `get -w`). */
  spawnKubectl(identity: Identity, args: string[]): ChildProcess;
  /** A raw HTTPS request with the identity's token (or none). */
  raw(
    method: string,
    path: string,
    options?: { identity?: Identity | 'none'; body?: string; contentType?: string },
  ): Promise<RawResponse>;
  close(): Promise<void>;
}

/** A raw HTTPS answer. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Starts a test server. */
export async function startTestServer(
  options: SimulatedClusterOptions & ServeClusterOptions = {},
): Promise<TestServer> {
  const cluster = createSimulatedCluster(options);
  const served = await serveCluster(cluster, { bookmarkIntervalMs: 200, ...options });
  const dir = mkdtempSync(join(tmpdir(), 'sim-test-'));
  const paths = {} as Record<Identity, string>;
  for (const identity of ['admin', 'reader', 'restricted'] as Identity[]) {
    paths[identity] = join(dir, `${identity}.yaml`);
    writeFileSync(paths[identity], served.kubeconfig(identity));
  }
  const base = (identity: Identity) => ['--kubeconfig', paths[identity], '--cache-dir', join(dir, 'cache')];
  return {
    cluster,
    served,
    dir,
    kubeconfigPath: (identity) => paths[identity],
    kubectl: (identity, args, input) =>
      new Promise((resolve) => {
        const child = execFile(
          'kubectl',
          [...base(identity), ...args],
          { timeout: 20_000 },
          (error, stdout, stderr) => {
            const code = error
              ? typeof (error as { code?: unknown }).code === 'number'
                ? (error as { code: number }).code
                : 1
              : 0;
            resolve({ code, stdout, stderr });
          },
        );
        if (input !== undefined) child.stdin?.end(input);
      }),
    spawnKubectl: (identity, args) =>
      spawn('kubectl', [...base(identity), ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
    raw: (method, path, rawOptions = {}) =>
      new Promise((resolve, reject) => {
        const identity = rawOptions.identity ?? 'admin';
        const headers: Record<string, string> = {};
        if (identity !== 'none') headers.Authorization = `Bearer ${served.tokens[identity]}`;
        if (rawOptions.contentType) headers['Content-Type'] = rawOptions.contentType;
        const req = request(
          `${served.url}${path}`,
          { method, headers, ca: Buffer.from(served.caData, 'base64').toString() },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(rawOptions.body);
      }),
    close: async () => {
      await served.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
