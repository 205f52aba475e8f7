import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { load } from 'js-yaml';

/** A dashboard with its own embedded fleet, for specs that drive the scenario clock themselves. */
export interface EmbeddedServer {
  baseURL: string;
  dataDir: string;
  /** `POST /__sim/<action>` on one simulated cluster with the admin identity (e.g. `advance?by=3m`). */
  sim(cluster: string, action: string): Promise<unknown>;
  stop(): Promise<void>;
}

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
}

/**
 * Starts `server/cli/start.ts --no-build` on `port` with the given scenarios and clock speed (a tiny speed leaves the
 * clock to the spec), data in `dataDir`. Reads the admin kubeconfig the launcher writes at
 * `<dataDir>/embedded-<port>/admin-kubeconfig.yaml` for the `/__sim` control surface.
 */
export async function startEmbeddedServer(options: {
  port: number;
  scenarios: string[];
  speed: number;
  dataDir: string;
  /** More `npm start` flags (e.g. `--auth openshift --htpasswd FILE`). */
  args?: string[];
  /** What answers 200 once the server is up (default `/api/clusters`; with login on, `/readyz`). */
  readyPath?: string;
  /** How long to wait for it (default 120 s). */
  readyTimeoutMs?: number;
}): Promise<EmbeddedServer> {
  const { port, dataDir } = options;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--conditions=react-server',
      '--import',
      'tsx',
      'server/cli/start.ts',
      '--no-build',
      '--port',
      String(port),
      '--scenario',
      options.scenarios.join(','),
      '--speed',
      String(options.speed),
      ...(options.args ?? []),
    ],
    {
      env: { ...process.env, UPDATE_HEALTH_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`embedded server exited: ${output}`);
    const ok = await fetch(`${baseURL}${options.readyPath ?? '/api/clusters'}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`embedded server not ready: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const kubeconfig = load(
    readFileSync(join(dataDir, `embedded-${port}`, 'admin-kubeconfig.yaml'), 'utf8'),
  ) as Kubeconfig;
  const sim = (cluster: string, action: string): Promise<unknown> => {
    const entry = kubeconfig.clusters.find((c) => c.name === cluster);
    const token = kubeconfig.users.find((u) => u.name === cluster)?.user.token;
    if (!entry || !token) throw new Error(`no cluster ${cluster} in the admin kubeconfig`);
    const url = new URL(`/__sim/${action}`, entry.cluster.server);
    const ca = Buffer.from(entry.cluster['certificate-authority-data'], 'base64');
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(body))
            : reject(new Error(`${url.pathname}: HTTP ${res.statusCode} ${body}`)),
        );
      });
      req.on('error', reject);
      req.end();
    });
  };
  return {
    baseURL,
    dataDir,
    sim,
    stop: async () => {
      if (child.exitCode !== null || !child.pid) return;
      process.kill(-child.pid, 'SIGTERM');
      // next start waits for open responses (a browser's event stream) before exiting; do not wait forever.
      const timer = setTimeout(() => {
        if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Advances a simulated cluster's clock in steps (so the watch sees the story unfold) up to `totalMinutes`. */
export async function advanceMinutes(server: EmbeddedServer, cluster: string, totalMinutes: number): Promise<void> {
  for (let i = 0; i < totalMinutes; i++) {
    await server.sim(cluster, 'advance?by=1m');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
