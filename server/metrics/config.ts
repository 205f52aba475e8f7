import 'server-only';
import { z } from 'zod';

const targetSchema = z
  .object({
    /** Base URL of a Prometheus-compatible API, e.g. `https://thanos-querier-openshift-monitoring.apps.example.com`. */
    url: z.string().min(1),
    /** File holding the bearer token (re-read on every poll, so rotated tokens work). */
    tokenFile: z.string().optional(),
    /** PEM CA bundle for https. */
    caFile: z.string().optional(),
    /** Loopback addresses are refused unless set (tests and port-forwards). */
    allowLoopback: z.boolean().default(false),
    /** How often Prometheus scrapes ovnkube (sets the minimum step and the rate window). OpenShift: 30 s. */
    scrapeIntervalSeconds: z.number().positive().max(3600).default(30),
    /** Label that names the node on ovnkube series. */
    nodeLabel: z
      .string()
      .regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/)
      .default('node'),
  })
  .strict();

/** One cluster's Prometheus API. */
export type PrometheusTarget = z.infer<typeof targetSchema>;

/** Thrown when `UPDATE_HEALTH_PROMETHEUS` is malformed; names every problem. */
export class MetricsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetricsConfigError';
  }
}

/**
 * Parses `UPDATE_HEALTH_PROMETHEUS`: a JSON object from cluster id (kubeconfig context name) to
 * `{ url, tokenFile?, caFile?, allowLoopback?, scrapeIntervalSeconds?, nodeLabel? }`; the key `*` applies to every
 * cluster without an entry of its own. Unset or empty: no cluster has a Prometheus.
 */
export function parsePrometheusConfig(raw: string | undefined): Record<string, PrometheusTarget> {
  if (!raw || raw.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new MetricsConfigError(`UPDATE_HEALTH_PROMETHEUS is not JSON: ${(error as Error).message}`);
  }
  const parsed = z.record(z.string(), targetSchema).safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new MetricsConfigError(`UPDATE_HEALTH_PROMETHEUS is invalid: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The Prometheus configured for `clusterId` (its own entry, else `*`), if any. */
export function prometheusFor(
  config: Record<string, PrometheusTarget>,
  clusterId: string,
): PrometheusTarget | undefined {
  return config[clusterId] ?? config['*'];
}
