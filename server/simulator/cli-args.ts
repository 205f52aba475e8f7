import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UnknownScenarioError, defaultFleetSpeed } from './fleet';
import { SCENARIOS } from './scenarios/registry';
import type { ScenarioName } from './types';

/** Thrown for bad command-line input (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const USAGE =
  'usage: npm run sim -- (--scenario NAME | --all) [--fleet N] [--port N] [--speed X] [--seed N] [--kubeconfig PATH] [--admin-kubeconfig PATH] [--htpasswd FILE]\n' +
  '                      [--hub [--token-ttl SECONDS] [--member-contexts]]\n' +
  '       npm run sim -- --scenario NAME --dump-must-gather DIR [--at DURATION] [--seed N]\n' +
  '  --hub              also run an ACM / OCM hub registering every cluster (ManagedCluster, ClusterProfile,\n' +
  '                     managed-serviceaccount token Secrets, cluster-proxy); the kubeconfig gets one context "hub"\n' +
  '  --token-ttl S      seconds between managed-serviceaccount token rotations (default 300; the old token works\n' +
  '                     for a tenth of that, 1-30 s, then answers 401)\n' +
  '  --member-contexts  with --hub, also write a context per cluster (default: the hub context only)';

/** Parsed command line of `npm run sim`. */
export interface SimArgs {
  scenarios: ScenarioName[];
  /** Run this many clusters cycling through the scenarios (ids `<scenario>-<i>`). */
  fleet?: number;
  port?: number;
  speed: number;
  seed: number;
  kubeconfig: string;
  adminKubeconfig?: string;
  /** Users of the embedded OAuth server's HTPasswd provider (default: admin, sre, dev with random passwords). */
  htpasswd?: string;
  /** Write a must-gather of the one scenario to this directory instead of serving it. */
  dumpMustGather?: string;
  /** Virtual ms from the scenario start at which to dump (default: its `failureAtMs` + 1 minute). */
  atMs?: number;
  /** Run the embedded ACM hub in front of the clusters. */
  hub: boolean;
  /** Seconds between managed-serviceaccount token rotations (with `hub`). */
  tokenTtlSeconds?: number;
  /** With `hub`, also write each cluster's own context into the kubeconfigs. */
  memberContexts: boolean;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Parses a Go-style duration (`45m`, `90s`, `1h30m`, `500ms`) into milliseconds. */
export function parseDuration(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!text || parts.map((part) => part[0]).join('') !== text) {
    throw new UsageError(`--at must be a duration like 45m, 90s or 1h30m, got "${text}"`);
  }
  return parts.reduce((total, [, value, unit]) => total + Number(value) * DURATION_UNITS[unit], 0);
}

function dumpTarget(path: string): string {
  const dir = resolve(path);
  if (!existsSync(dir)) return dir;
  if (!statSync(dir).isDirectory()) throw new UsageError(`--dump-must-gather: ${dir} exists and is not a directory`);
  if (readdirSync(dir).length > 0) throw new UsageError(`--dump-must-gather: ${dir} is not empty`);
  return dir;
}

function positiveNumber(flag: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} must be a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  }
  return value;
}

/** Parses and validates the arguments. */
export function parseSimArgs(argv: string[]): SimArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        scenario: { type: 'string', multiple: true },
        all: { type: 'boolean' },
        fleet: { type: 'string' },
        port: { type: 'string' },
        speed: { type: 'string' },
        seed: { type: 'string' },
        kubeconfig: { type: 'string' },
        'admin-kubeconfig': { type: 'string' },
        htpasswd: { type: 'string' },
        'dump-must-gather': { type: 'string' },
        at: { type: 'string' },
        hub: { type: 'boolean' },
        'token-ttl': { type: 'string' },
        'member-contexts': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const fleet = positiveNumber('fleet', values.fleet, true);
  // --fleet alone cycles through every scenario
  const everything = values.all || (fleet !== undefined && !values.scenario?.length);
  const names = everything
    ? (Object.keys(SCENARIOS) as ScenarioName[])
    : (values.scenario ?? []).flatMap((name) => name.split(','));
  if (values.all && values.scenario?.length) throw new UsageError(`use either --scenario or --all, not both\n${USAGE}`);
  if (!names.length) {
    throw new UsageError(values.all ? 'no scenarios are registered yet' : `missing --scenario NAME or --all\n${USAGE}`);
  }
  for (const name of names)
    if (!SCENARIOS[name as ScenarioName]) throw new UsageError(new UnknownScenarioError(name).message);
  const dump = values['dump-must-gather'];
  if (values.at !== undefined && dump === undefined)
    throw new UsageError(`--at only applies with --dump-must-gather DIR\n${USAGE}`);
  if (dump !== undefined && fleet !== undefined)
    throw new UsageError('--dump-must-gather takes one scenario, not --fleet');
  if (dump !== undefined && names.length !== 1) throw new UsageError('--dump-must-gather takes exactly one --scenario');
  if (dump !== undefined && (values.port || values.speed))
    throw new UsageError('--dump-must-gather serves nothing: drop --port and --speed');
  if (!values.hub && (values['token-ttl'] !== undefined || values['member-contexts']))
    throw new UsageError(`--token-ttl and --member-contexts only apply with --hub\n${USAGE}`);
  if (dump !== undefined && values.hub) throw new UsageError('--dump-must-gather serves nothing: drop --hub');
  const port = positiveNumber('port', values.port, true);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got "${values.port}"`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  return {
    scenarios: names as ScenarioName[],
    fleet,
    port,
    speed: positiveNumber('speed', values.speed, false) ?? defaultFleetSpeed(fleet),
    seed,
    kubeconfig: resolve(values.kubeconfig ?? './data/sim-kubeconfig.yaml'),
    adminKubeconfig: values['admin-kubeconfig'] ? resolve(values['admin-kubeconfig']) : undefined,
    htpasswd: values.htpasswd ? resolve(values.htpasswd) : undefined,
    dumpMustGather: dump === undefined ? undefined : dumpTarget(dump),
    atMs: values.at === undefined ? undefined : parseDuration(values.at),
    hub: values.hub ?? false,
    tokenTtlSeconds: positiveNumber('token-ttl', values['token-ttl'], true),
    memberContexts: values['member-contexts'] ?? false,
  };
}
