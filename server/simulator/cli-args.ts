import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UnknownScenarioError } from './fleet';
import { SCENARIOS } from './scenarios/registry';
import type { ScenarioName } from './types';

/** Thrown for bad command-line input (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const USAGE = 'usage: npm run sim -- (--scenario NAME | --all) [--port N] [--speed X] [--seed N] [--kubeconfig PATH] [--admin-kubeconfig PATH]';

/** Parsed command line of `npm run sim`. */
export interface SimArgs {
  scenarios: ScenarioName[];
  port?: number;
  speed: number;
  seed: number;
  kubeconfig: string;
  adminKubeconfig?: string;
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
        port: { type: 'string' },
        speed: { type: 'string' },
        seed: { type: 'string' },
        kubeconfig: { type: 'string' },
        'admin-kubeconfig': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const names = values.all ? (Object.keys(SCENARIOS) as ScenarioName[]) : (values.scenario ?? []).flatMap((name) => name.split(','));
  if (values.all && values.scenario?.length) throw new UsageError(`use either --scenario or --all, not both\n${USAGE}`);
  if (!names.length) {
    throw new UsageError(values.all ? 'no scenarios are registered yet' : `missing --scenario NAME or --all\n${USAGE}`);
  }
  for (const name of names) if (!SCENARIOS[name as ScenarioName]) throw new UsageError(new UnknownScenarioError(name).message);
  const port = positiveNumber('port', values.port, true);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got "${values.port}"`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  return {
    scenarios: names as ScenarioName[],
    port,
    speed: positiveNumber('speed', values.speed, false) ?? 10,
    seed,
    kubeconfig: resolve(values.kubeconfig ?? './data/sim-kubeconfig.yaml'),
    adminKubeconfig: values['admin-kubeconfig'] ? resolve(values['admin-kubeconfig']) : undefined,
  };
}
