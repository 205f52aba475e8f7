/**
 * `npm start`: serves the dashboard on PORT (default 3000). Without a cluster named explicitly (`--kubeconfig`,
 * `--context`, or UPDATE_HEALTH_KUBECONFIG) it first starts the embedded fleet — one simulated cluster per
 * scenario — and points the dashboard at it through a generated kubeconfig, so the default path runs the same
 * watch layer as a real cluster. Builds the production bundle when sources changed since the last build.
 */
import './check-node';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer, isIP, type AddressInfo } from 'node:net';
import { tlsEnv } from '@/server/env';
import { EMBEDDED_OAUTH_CLIENT_ID } from '@/server/simulator/api-server';
import { configureProcessUsers } from '@/server/simulator/access/htpasswd';
import { defaultFleetSpeed, startFleet } from '@/server/simulator/fleet';
import { HUB_CONTEXT, fleetMembers, startHub } from '@/server/simulator/hub/serve-hub';
import { SCENARIO_NAMES, type ScenarioName } from '@/server/simulator/types';
import { parseHubArgument } from '@/server/fleet-sources/hub-config';
import { needsBuild } from './build-state';
import { startTlsFront, type TlsFront } from './tls-front';

const USAGE = `usage: npm start -- [--port N] [--host H] [--kubeconfig PATH] [--context NAME[,NAME...]]
                     [--hub [FILE[:CONTEXT]]] [--hub-namespace NS] [--hub-proxy-url URL]
                     [--scenario NAME[,NAME...]] [--fleet N] [--speed X] [--no-build] [--dev]
                     [--auth none|openshift] [--auth-cluster CONTEXT] [--htpasswd FILE] [--insecure-no-auth]
                     [--max-heap-mb N] [--tls-cert FILE --tls-key FILE] [--xss-probe]`;

function fail(message: string): never {
  console.error(`npm start: ${message}\n${USAGE}`);
  process.exit(2);
}

/** `--hub` alone (the embedded hub) becomes `--hub=`; `--hub FILE[:CONTEXT]` names a real hub. */
function embeddedHubFlag(argv: string[]): string[] {
  return argv.map((arg, index) =>
    arg === '--hub' && (index + 1 === argv.length || argv[index + 1].startsWith('-')) ? '--hub=' : arg,
  );
}

function parse() {
  try {
    return parseArgs({
      args: embeddedHubFlag(process.argv.slice(2)),
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        hub: { type: 'string' },
        'hub-namespace': { type: 'string' },
        'hub-proxy-url': { type: 'string' },
        scenario: { type: 'string' },
        fleet: { type: 'string' },
        speed: { type: 'string' },
        'no-build': { type: 'boolean' },
        dev: { type: 'boolean' },
        auth: { type: 'string' },
        'auth-cluster': { type: 'string' },
        htpasswd: { type: 'string' },
        'insecure-no-auth': { type: 'boolean' },
        'max-heap-mb': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'xss-probe': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '[::1]';
}

/** A free loopback port for next when the TLS front takes the public one. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePromise(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const args = parse();
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const root = resolve('.');
  const port = Number(args.port ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    fail(`--port must be a TCP port, got "${args.port ?? process.env.PORT}"`);
  const host = args.host ?? '127.0.0.1';
  const auth = args.auth ?? (process.env.UPDATE_HEALTH_AUTH || 'none');
  if (auth !== 'none' && auth !== 'openshift') fail(`--auth must be none or openshift, got "${auth}"`);
  if (auth === 'none' && !isLoopback(host) && !args['insecure-no-auth']) {
    fail(
      `refusing to serve every cluster's data without login on ${host}: use --auth openshift, or --insecure-no-auth if something in front authenticates`,
    );
  }
  if (args.speed !== undefined && !(Number(args.speed) > 0))
    fail(`--speed must be a positive number, got "${args.speed}"`);
  if (args.htpasswd && (args.kubeconfig || args.context))
    fail("--htpasswd configures the embedded clusters' login; a real cluster has its own identity providers");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(port),
    UPDATE_HEALTH_AUTH: auth,
  };
  if (args['auth-cluster']) env.UPDATE_HEALTH_AUTH_CLUSTER = args['auth-cluster'];
  // The dashboard's JavaScript heap limit: set it to what the container's memory limit leaves for the heap, or V8
  // sizes it from the machine and grows the heap with garbage long past what the service needs.
  const heapText = args['max-heap-mb'] ?? process.env.UPDATE_HEALTH_MAX_HEAP_MB;
  if (heapText !== undefined && heapText !== '') {
    const heapMb = Number(heapText);
    if (!Number.isInteger(heapMb) || heapMb < 128)
      fail(`--max-heap-mb must be an integer of at least 128, got "${heapText}"`);
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${heapMb}`.trim();
  }
  const tlsFiles = tlsEnv();
  const certFile = args['tls-cert'] ?? tlsFiles.certFile;
  const keyFile = args['tls-key'] ?? tlsFiles.keyFile;
  if (!certFile !== !keyFile) fail('--tls-cert and --tls-key (UPDATE_HEALTH_TLS_CERT_FILE/_KEY_FILE) go together');
  // The metrics listener (run by the dashboard process, TLS only) binds the public address too.
  if (process.env.UPDATE_HEALTH_METRICS_PORT) {
    if (!certFile) fail('UPDATE_HEALTH_METRICS_PORT needs --tls-cert and --tls-key: the metrics listener is TLS only');
    env.UPDATE_HEALTH_METRICS_HOST ||= host;
    env.UPDATE_HEALTH_TLS_CERT_FILE = certFile;
    env.UPDATE_HEALTH_TLS_KEY_FILE = keyFile;
  }
  const dataDir = resolve(process.env.UPDATE_HEALTH_DATA_DIR ?? 'data');

  let stopFleet = async (): Promise<void> => {};
  const kubeconfig = args.kubeconfig ?? process.env.UPDATE_HEALTH_KUBECONFIG;
  const embeddedHub = args.hub === '';
  // --hub FILE[:CONTEXT] (or UPDATE_HEALTH_HUB_KUBECONFIG): a real hub, alone or beside a kubeconfig.
  const hub = args.hub || (args.hub === undefined ? process.env.UPDATE_HEALTH_HUB_KUBECONFIG : undefined);
  if (hub) {
    const { kubeconfig: hubFile, context: hubContext } = parseHubArgument(hub);
    const hubPath = resolve(hubFile);
    if (!existsSync(hubPath)) fail(`hub kubeconfig ${hubPath} does not exist`);
    env.UPDATE_HEALTH_HUB_KUBECONFIG = hubContext ? `${hubPath}:${hubContext}` : hubPath;
    if (args['hub-namespace']) env.UPDATE_HEALTH_HUB_NAMESPACE = args['hub-namespace'];
    if (args['hub-proxy-url']) env.UPDATE_HEALTH_HUB_PROXY_URL = args['hub-proxy-url'];
    env.UPDATE_HEALTH_EMBEDDED = '0';
    console.log(`Update Health: fleet from the hub ${env.UPDATE_HEALTH_HUB_KUBECONFIG}`);
  }
  if (hub && !kubeconfig && !args.context) {
    // the hub alone is the fleet
  } else if (kubeconfig || args.context) {
    const path = resolve(kubeconfig ?? process.env.KUBECONFIG ?? join(process.env.HOME ?? '', '.kube', 'config'));
    if (!existsSync(path)) fail(`kubeconfig ${path} does not exist`);
    env.UPDATE_HEALTH_KUBECONFIG = path;
    if (args.context) env.UPDATE_HEALTH_CONTEXTS = args.context;
    env.UPDATE_HEALTH_EMBEDDED = '0';
    console.log(`Update Health: watching ${args.context ? `context(s) ${args.context}` : 'every context'} of ${path}`);
  } else {
    const names = (args.scenario?.split(',') ?? [...SCENARIO_NAMES]) as ScenarioName[];
    const unknown = names.filter((name) => !SCENARIO_NAMES.includes(name));
    if (unknown.length > 0) fail(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIO_NAMES.join(', ')}`);
    const size = args.fleet === undefined ? undefined : Number(args.fleet);
    if (size !== undefined && !(Number.isInteger(size) && size > 0))
      fail(`--fleet must be a positive integer, got "${args.fleet}"`);
    const speed = args.speed === undefined ? defaultFleetSpeed(size) : Number(args.speed);
    let users: string | undefined;
    try {
      users = configureProcessUsers(args.htpasswd);
    } catch (error) {
      fail((error as Error).message);
    }
    // --xss-probe (tests only): extension-install-flap also carries a ClusterExtension full of hostile text
    const fleet = await startFleet({ scenarios: names, size, speed, xssProbe: args['xss-probe'] });
    const dir = join(dataDir, `embedded-${port}`);
    mkdirSync(dir, { recursive: true });
    // --hub alone: the dashboard finds the embedded clusters through an embedded ACM hub, from its context only.
    const hub = embeddedHub
      ? await startHub(fleetMembers(fleet), { realTime: true }).catch(async (error: unknown) => {
          await fleet.close();
          throw error;
        })
      : undefined;
    if (auth === 'openshift') {
      // The embedded clusters' OAuth client is their reader service account; its token is the client secret.
      const secretPath = join(dir, 'oauth-client-secret');
      writeFileSync(secretPath, fleet.clusters[0].server.tokens.reader, { mode: 0o600 });
      env.UPDATE_HEALTH_OAUTH_CLIENT_ID = EMBEDDED_OAUTH_CLIENT_ID;
      env.UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE = secretPath;
      console.log(`Update Health: ${users}`);
    }
    const readerPath = join(dir, 'kubeconfig.yaml');
    writeFileSync(readerPath, fleet.kubeconfig('reader'), { mode: 0o600 });
    writeFileSync(join(dir, 'admin-kubeconfig.yaml'), fleet.kubeconfig('admin'), { mode: 0o600 });
    env.UPDATE_HEALTH_EMBEDDED = '1';
    if (hub) {
      const hubPath = join(dir, 'hub-kubeconfig.yaml');
      writeFileSync(hubPath, hub.kubeconfig('reader'), { mode: 0o600 });
      writeFileSync(join(dir, 'hub-admin-kubeconfig.yaml'), hub.kubeconfig('admin'), { mode: 0o600 });
      env.UPDATE_HEALTH_HUB_KUBECONFIG = `${hubPath}:${HUB_CONTEXT}`;
      env.UPDATE_HEALTH_HUB_NAMESPACE = hub.namespace;
      console.log(
        `Update Health: embedded ACM hub ${hub.server.url}, cluster-proxy ${hub.proxy.url}; kubeconfig ${hubPath}`,
      );
    } else {
      env.UPDATE_HEALTH_KUBECONFIG = readerPath;
    }
    stopFleet = async () => {
      await hub?.close();
      await fleet.close();
    };
    const what = size === undefined ? names.join(', ') : `${size} clusters cycling through ${names.join(', ')}`;
    console.log(`Update Health: embedded fleet (${what}) at speed ${speed}x; kubeconfig ${readerPath}`);
  }

  const next = join(root, 'node_modules', '.bin', 'next');
  if (!args.dev && !args['no-build'] && needsBuild(root)) {
    console.log('Update Health: building the dashboard (sources changed since the last build) ...');
    const code = await run(next, ['build'], env);
    if (code !== 0) {
      await stopFleet();
      process.exit(code);
    }
  }
  // With a certificate, next listens on loopback only and the TLS front takes the public address.
  const nextHost = certFile ? '127.0.0.1' : host;
  const nextPort = certFile ? await freeLoopbackPort() : port;
  let front: TlsFront | undefined;
  if (certFile && keyFile) {
    const warn = (message: string) => console.warn(`Update Health: ${message}`);
    front = await startTlsFront({ host, port, certFile, keyFile, upstreamPort: nextPort, warn }).catch(
      async (error: unknown) => {
        await stopFleet();
        return fail((error as Error).message);
      },
    );
  }
  const nextArgs = [args.dev ? 'dev' : 'start', '-H', nextHost, '-p', String(nextPort)];
  const child = spawn(next, nextArgs, { stdio: 'inherit', env });
  console.log(`Update Health: dashboard on ${front ? 'https' : 'http'}://${host}:${port}/`);
  const shutdown = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  child.on('exit', (code) => {
    void Promise.all([stopFleet(), front?.close()]).finally(() => process.exit(code ?? 0));
  });
}

main().catch((error: unknown) => {
  console.error(`npm start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
