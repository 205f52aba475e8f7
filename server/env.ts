import 'server-only';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const envSchema = z.object({
  UPDATE_HEALTH_KUBECONFIG: z.string().min(1, 'UPDATE_HEALTH_KUBECONFIG must name a kubeconfig file'),
  /** Comma-separated kubeconfig contexts to watch; all contexts when unset. */
  UPDATE_HEALTH_CONTEXTS: z.string().optional(),
  UPDATE_HEALTH_DATA_DIR: z.string().default('./data'),
  /** Set by the launcher when the kubeconfig points at the embedded fleet. */
  UPDATE_HEALTH_EMBEDDED: z.enum(['0', '1']).default('0'),
  /** Directory under which the must-gather page may open server-side paths; default `<data dir>/must-gather`. */
  UPDATE_HEALTH_MUST_GATHER_ROOT: z.string().optional(),
  /** Prometheus APIs per cluster id as JSON (README "Metrics"); without one a cluster's ovnkube pods are scraped. */
  UPDATE_HEALTH_PROMETHEUS: z.string().optional(),
});

/** Server configuration, parsed once from the environment. */
export type ServerEnv = z.infer<typeof envSchema>;

/** Thrown when the environment is incomplete or malformed; lists every problem at once. */
export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

let cached: ServerEnv | undefined;

/** The parsed environment. Fails fast with every missing or malformed key named. */
export function serverEnv(): ServerEnv {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Update Health server configuration is invalid:\n  ${problems.join('\n  ')}\n` +
      'Start it with `npm start` (embedded fleet) or `npm start -- --kubeconfig PATH [--context NAME]`.');
  }
  cached = parsed.data;
  return cached;
}

/**
 * What metrics sources read, on its own (no kubeconfig needed) so they can be built wherever a fleet is, including
 * tests and CLIs: the raw `UPDATE_HEALTH_PROMETHEUS` (validated by server/metrics/config.ts) and whether the fleet
 * is the embedded one (its ovnkube pods are scraped more often).
 */
export function metricsEnv(): { prometheus: string | undefined; embedded: boolean } {
  return { prometheus: process.env.UPDATE_HEALTH_PROMETHEUS, embedded: process.env.UPDATE_HEALTH_EMBEDDED === '1' };
}

/**
 * The only directory the must-gather page may open paths under (absolute): `UPDATE_HEALTH_MUST_GATHER_ROOT`, else
 * `<UPDATE_HEALTH_DATA_DIR>/must-gather`. Read on its own: opening a must-gather needs no kubeconfig.
 */
export function mustGatherRoot(): string {
  const configured = process.env.UPDATE_HEALTH_MUST_GATHER_ROOT;
  return resolve(configured || join(process.env.UPDATE_HEALTH_DATA_DIR || './data', 'must-gather'));
}
