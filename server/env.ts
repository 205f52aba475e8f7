import 'server-only';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const envSchema = z
  .object({
    /** A kubeconfig whose contexts are fleet members (watched: contexts added or removed later count too). */
    UPDATE_HEALTH_KUBECONFIG: z.string().min(1, 'UPDATE_HEALTH_KUBECONFIG must name a kubeconfig file').optional(),
    /** An ACM / OCM hub (`FILE[:CONTEXT]`) whose managed clusters are fleet members (README "Fleet from a hub"). */
    UPDATE_HEALTH_HUB_KUBECONFIG: z.string().min(1).optional(),
    /** The hub namespace whose ClusterProfiles are the fleet; default the dashboard's own namespace. */
    UPDATE_HEALTH_HUB_NAMESPACE: z.string().min(1).optional(),
    /** Set by the downward API in the dashboard's pod: its own namespace. */
    POD_NAMESPACE: z.string().min(1).optional(),
    /** The ManagedServiceAccount whose token Secrets reach the managed clusters (default `update-health`). */
    UPDATE_HEALTH_HUB_MANAGED_SERVICE_ACCOUNT: z.string().min(1).optional(),
    /** The cluster-proxy user-server URL, for hubs without the ClusterProfile API. */
    UPDATE_HEALTH_HUB_PROXY_URL: z.string().url().optional(),
    /**
     * A JSON file of ClusterProfile access providers as the Cluster Inventory API's consumers read them
     * (`{"providers":[{"name":"open-cluster-management","execConfig":{...}}]}`): credentials from the exec plugin.
     */
    UPDATE_HEALTH_HUB_ACCESS_PROVIDERS_FILE: z.string().min(1).optional(),
    /** Comma-separated kubeconfig contexts to watch; all contexts when unset. */
    UPDATE_HEALTH_CONTEXTS: z.string().optional(),
    UPDATE_HEALTH_DATA_DIR: z.string().default('./data'),
    /** Set by the launcher when the kubeconfig points at the embedded fleet. */
    UPDATE_HEALTH_EMBEDDED: z.enum(['0', '1']).default('0'),
    /** Directory under which the must-gather page may open server-side paths; default `<data dir>/must-gather`. */
    UPDATE_HEALTH_MUST_GATHER_ROOT: z.string().optional(),
    /** Prometheus APIs per cluster id as JSON (README "Metrics"); without one a cluster's ovnkube pods are scraped. */
    UPDATE_HEALTH_PROMETHEUS: z.string().optional(),
  })
  .refine((env) => env.UPDATE_HEALTH_KUBECONFIG || env.UPDATE_HEALTH_HUB_KUBECONFIG, {
    message: 'UPDATE_HEALTH_KUBECONFIG or UPDATE_HEALTH_HUB_KUBECONFIG must name where the fleet comes from',
    path: ['UPDATE_HEALTH_KUBECONFIG'],
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
    throw new EnvError(
      `Update Health server configuration is invalid:\n  ${problems.join('\n  ')}\n` +
        'Start it with `npm start` (embedded fleet), `npm start -- --kubeconfig PATH [--context NAME]` or ' +
        '`npm start -- --hub FILE[:CONTEXT]`.',
    );
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
  // A setting read at run time, not a file of the build: keep the build's file tracing away from it.
  return resolve(
    /* turbopackIgnore: true */ configured || join(process.env.UPDATE_HEALTH_DATA_DIR || './data', 'must-gather'),
  );
}

const publicUrlSchema = z.preprocess((value) => (value === '' ? undefined : value), z.string().url().optional());

/**
 * The dashboard's public URL (`UPDATE_HEALTH_PUBLIC_URL`), read on its own for the links alerts carry; `undefined`
 * when unset or empty. Throws EnvError when it is not a URL.
 */
export function publicUrl(): string | undefined {
  const parsed = publicUrlSchema.safeParse(process.env.UPDATE_HEALTH_PUBLIC_URL);
  if (!parsed.success)
    throw new EnvError(
      `UPDATE_HEALTH_PUBLIC_URL must be a URL (https://<route host>), not "${process.env.UPDATE_HEALTH_PUBLIC_URL}"`,
    );
  return parsed.data;
}

const authEnvSchema = z.object({
  UPDATE_HEALTH_AUTH: z.enum(['none', 'openshift']).default('none'),
  /** The fleet member whose OAuth server users log in through (default: the first context). */
  UPDATE_HEALTH_AUTH_CLUSTER: z.string().optional(),
  /** The OAuth client: on OpenShift, the service account (`system:serviceaccount:<ns>:<name>`) with a redirect reference. */
  UPDATE_HEALTH_OAUTH_CLIENT_ID: z.string().default('system:serviceaccount:openshift-update-health:update-health'),
  /** The client secret: for a service-account client, one of its tokens (the projected token by default). */
  UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE: z.string().default('/var/run/secrets/kubernetes.io/serviceaccount/token'),
  /** Extra CA bundle for the OAuth server's certificate (default: the auth cluster's kubeconfig CA plus system roots). */
  UPDATE_HEALTH_OAUTH_CA_FILE: z.string().optional(),
  /**
   * The dashboard's external URL (the Route), for the OAuth redirect URI (default: from the request's Host) and the
   * links in alerts; empty counts as unset (the deploy's ConfigMap ships it empty until the admin sets it).
   */
  UPDATE_HEALTH_PUBLIC_URL: publicUrlSchema,
  /**
   * 32 random bytes (base64 or hex) that encrypt the OAuth access tokens kept in sessions (AES-256-GCM); every replica
   * needs the same. Required with `--auth openshift` on a real cluster; the embedded fleet and `--dev` make an
   * ephemeral one (sessions then last only as long as the process).
   */
  UPDATE_HEALTH_SESSION_KEY_FILE: z.string().min(1).optional(),
  /** Longest a browser session lasts, however long its OAuth token would (seconds, default 12 h). */
  UPDATE_HEALTH_SESSION_MAX_AGE_SECONDS: z.coerce.number().int().min(60).default(43_200),
  /** How often a session's token is reviewed again (seconds, at most 5 min): revoked access ends it within that. */
  UPDATE_HEALTH_SESSION_REVIEW_SECONDS: z.coerce.number().int().min(10).max(300).default(240),
  UPDATE_HEALTH_EMBEDDED: z.enum(['0', '1']).default('0'),
  NODE_ENV: z.string().optional(),
});

/** Authentication settings (README "Login"), read on their own: the edge needs them without a kubeconfig. */
export type AuthEnv = z.infer<typeof authEnvSchema>;

/** The authentication settings; throws EnvError naming every malformed key. */
export function authEnv(): AuthEnv {
  const parsed = authEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    throw new EnvError(
      `Update Health authentication settings are invalid:\n  ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n  ')}`,
    );
  }
  return parsed.data;
}

const tlsEnvSchema = z.object({
  /** PEM certificate `npm start` serves HTTPS with (with the key); plain HTTP when neither is set. */
  UPDATE_HEALTH_TLS_CERT_FILE: z.string().optional(),
  UPDATE_HEALTH_TLS_KEY_FILE: z.string().optional(),
});

/** Serving TLS settings (README "Deploy on OpenShift"), read by the launcher; empty values count as unset. */
export function tlsEnv(): { certFile: string | undefined; keyFile: string | undefined } {
  const parsed = tlsEnvSchema.parse(process.env);
  return {
    certFile: parsed.UPDATE_HEALTH_TLS_CERT_FILE || undefined,
    keyFile: parsed.UPDATE_HEALTH_TLS_KEY_FILE || undefined,
  };
}

const metricsListenerEnvSchema = z.object({
  /** The metrics listener's port (mutual TLS, /metrics only); unset: no listener. Needs the TLS certificate and key. */
  UPDATE_HEALTH_METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** The address it binds (the launcher passes its --host). */
  UPDATE_HEALTH_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** A PEM client CA bundle; unset: the auth cluster's kube-system/extension-apiserver-authentication client CA. */
  UPDATE_HEALTH_METRICS_CLIENT_CA_FILE: z.string().min(1).optional(),
  /** Comma-separated certificate names (CN) admitted; default: platform Prometheus's. */
  UPDATE_HEALTH_METRICS_CLIENT_NAMES: z.string().optional(),
});

/** The metrics listener's settings (README "Deploy on OpenShift"), with the serving TLS files it uses. */
export interface MetricsListenerEnv {
  port: number | undefined;
  host: string;
  clientCaFile: string | undefined;
  /** Undefined: the default (platform Prometheus). */
  clientNames: string[] | undefined;
  certFile: string | undefined;
  keyFile: string | undefined;
}

/** The metrics listener's settings; throws EnvError naming every malformed key. */
export function metricsListenerEnv(): MetricsListenerEnv {
  const raw = Object.fromEntries(
    Object.entries(process.env).filter(([key, value]) => key.startsWith('UPDATE_HEALTH_METRICS_') && value !== ''),
  );
  const parsed = metricsListenerEnvSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Update Health metrics listener settings are invalid:\n  ${problems.join('\n  ')}`);
  }
  const names = parsed.data.UPDATE_HEALTH_METRICS_CLIENT_NAMES?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return {
    port: parsed.data.UPDATE_HEALTH_METRICS_PORT,
    host: parsed.data.UPDATE_HEALTH_METRICS_HOST,
    clientCaFile: parsed.data.UPDATE_HEALTH_METRICS_CLIENT_CA_FILE,
    clientNames: names && names.length > 0 ? names : undefined,
    ...tlsEnv(),
  };
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const incidentEnvSchema = z.object({
  /** Incidents one user may create in a burst, then `UPDATE_HEALTH_INCIDENTS_PER_HOUR` refill the allowance. */
  UPDATE_HEALTH_INCIDENT_BURST: positiveInt(10),
  UPDATE_HEALTH_INCIDENTS_PER_HOUR: positiveInt(60),
  /** Per-user quota over the last 24 hours, checked against the stored incidents (so shared by replicas). */
  UPDATE_HEALTH_INCIDENT_DAILY_COUNT: positiveInt(200),
  UPDATE_HEALTH_INCIDENT_DAILY_BYTES: positiveInt(100 * 1024 * 1024),
  /** Largest incident stored (its JSON); a larger one is refused with 413. */
  UPDATE_HEALTH_INCIDENT_MAX_BYTES: positiveInt(8 * 1024 * 1024),
  /** Incidents older than this are deleted, at start and every hour. */
  UPDATE_HEALTH_INCIDENT_RETENTION_DAYS: z.coerce.number().positive().default(90),
});

/** Incident limits and retention (README "Incidents"). */
export type IncidentEnv = z.infer<typeof incidentEnvSchema>;

/** The incident limits and retention, read on their own; throws EnvError naming every malformed key. */
export function incidentEnv(): IncidentEnv {
  const parsed = incidentEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Update Health incident settings are invalid:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

const historyEnvSchema = z.object({
  /** Finding-history events older than this are deleted (an open finding keeps its opening), at start and hourly. */
  UPDATE_HEALTH_HISTORY_RETENTION_DAYS: z.coerce.number().positive().default(30),
});

/** Finding-history retention (README "Finding history"). */
export type HistoryEnv = z.infer<typeof historyEnvSchema>;

/** The finding-history settings, read on their own; throws EnvError naming every malformed key. */
export function historyEnv(): HistoryEnv {
  const parsed = historyEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Update Health finding-history settings are invalid:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/**
 * Where incidents and sessions are stored, read on its own (needs no kubeconfig): `UPDATE_HEALTH_DATABASE_URL` for
 * PostgreSQL, else the data directory (`UPDATE_HEALTH_DATA_DIR`, default `./data`); empty values count as unset.
 */
export function databaseEnv(): { url: string | undefined; dataDir: string } {
  return {
    url: process.env.UPDATE_HEALTH_DATABASE_URL || undefined,
    dataDir: process.env.UPDATE_HEALTH_DATA_DIR || './data',
  };
}
