import 'server-only';
import { spawn } from 'node:child_process';
import { z } from 'zod';
import type { CredentialSource } from '@/server/watch/kube-credentials';

/** The one exec credential API version spoken (client-go's `client.authentication.k8s.io/v1`). */
export const EXEC_CREDENTIAL_API_VERSION = 'client.authentication.k8s.io/v1';
/** The kubeconfig cluster extension whose `extension` is handed to the plugin as `spec.cluster.config`. */
export const EXEC_CLUSTER_EXTENSION = 'client.authentication.k8s.io/exec';

/** A kubeconfig user's `exec` stanza (or a ClusterProfile access provider's `execConfig`). */
export const execConfigSchema = z.object({
  apiVersion: z.string().default(EXEC_CREDENTIAL_API_VERSION),
  command: z.string().min(1, 'exec: command is required'),
  args: z.array(z.string()).nullish(),
  env: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
  provideClusterInfo: z.boolean().nullish(),
  interactiveMode: z.enum(['Never', 'IfAvailable', 'Always']).nullish(),
  installHint: z.string().nullish(),
});

/** How to run an exec credential plugin. */
export type ExecConfig = z.input<typeof execConfigSchema>;

/** What `provideClusterInfo` passes in `KUBERNETES_EXEC_INFO` (`spec.cluster`). */
export interface ExecClusterInfo {
  server: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  /** The cluster's `client.authentication.k8s.io/exec` extension (a ClusterProfile's `clusterName`). */
  config?: unknown;
}

const execCredentialSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal('ExecCredential'),
  status: z.object({
    token: z.string().min(1).optional(),
    clientCertificateData: z.string().optional(),
    clientKeyData: z.string().optional(),
    expirationTimestamp: z.string().optional(),
  }),
});

/** The plugin could not give a credential; the message says why in an operator's words. */
export class ExecCredentialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecCredentialError';
  }
}

const MAX_OUTPUT_BYTES = 1024 * 1024;
/** A credential this close to its expiry is fetched again, so a request never carries one that expires in flight. */
const EXPIRY_SKEW_MS = 10_000;

/** Options of {@link execCredentialSource}. */
export interface ExecCredentialOptions {
  cluster?: ExecClusterInfo;
  /** Longest a plugin run may take. Default 30 s. */
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The client-go exec credential plugin protocol as a {@link CredentialSource}: runs the plugin (never interactively:
 * there is no terminal), hands it `KUBERNETES_EXEC_INFO` (with the cluster when `provideClusterInfo`), and keeps its
 * token until `expirationTimestamp` (or, without one, until the server rejects it). Concurrent requests share one run.
 */
export function execCredentialSource(raw: ExecConfig, options: ExecCredentialOptions = {}): CredentialSource {
  const parsed = execConfigSchema.safeParse(raw);
  if (!parsed.success) throw new ExecCredentialError(`exec plugin config: ${parsed.error.issues[0].message}`);
  const config = parsed.data;
  const now = options.now ?? Date.now;
  let cached: { token: string; expiresAt: number | undefined } | undefined;
  let running: Promise<{ token: string }> | undefined;
  return ({ rejected }) => {
    if (rejected) cached = undefined;
    if (cached && (cached.expiresAt === undefined || cached.expiresAt - EXPIRY_SKEW_MS > now()))
      return Promise.resolve({ token: cached.token });
    running ??= runPlugin(config, options)
      .then((credential) => {
        cached = credential;
        return { token: credential.token };
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}

async function runPlugin(
  config: z.infer<typeof execConfigSchema>,
  options: ExecCredentialOptions,
): Promise<{ token: string; expiresAt: number | undefined }> {
  if (config.apiVersion !== EXEC_CREDENTIAL_API_VERSION)
    throw new ExecCredentialError(
      `exec plugin apiVersion ${config.apiVersion} is not supported (use ${EXEC_CREDENTIAL_API_VERSION})`,
    );
  if (config.interactiveMode === 'Always')
    throw new ExecCredentialError(
      `exec plugin ${config.command} needs an interactive terminal, which a server has not`,
    );
  const info = {
    apiVersion: config.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(config.provideClusterInfo && options.cluster ? { cluster: options.cluster } : {}) },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const { name, value } of config.env ?? []) env[name] = value;
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(config.command, config.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new ExecCredentialError(
          `exec plugin ${config.command} did not answer within ${options.timeoutMs ?? 30_000} ms`,
        ),
      );
    }, options.timeoutMs ?? 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes <= MAX_OUTPUT_BYTES) out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4_096) err += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      const hint = config.installHint ? ` (${config.installHint.trim()})` : '';
      reject(new ExecCredentialError(`exec plugin ${config.command} cannot run: ${error.message}${hint}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0)
        reject(new ExecCredentialError(`exec plugin ${config.command} exited ${code}: ${err.trim().slice(0, 500)}`));
      else resolve(Buffer.concat(out).toString('utf8'));
    });
  });
  let body: unknown;
  try {
    body = JSON.parse(stdout);
  } catch {
    throw new ExecCredentialError(`exec plugin ${config.command} printed no ExecCredential JSON`);
  }
  const credential = execCredentialSchema.safeParse(body);
  if (!credential.success)
    throw new ExecCredentialError(
      `exec plugin ${config.command} printed a malformed ExecCredential: ${credential.error.issues[0].message}`,
    );
  if (credential.data.apiVersion !== config.apiVersion)
    throw new ExecCredentialError(
      `exec plugin ${config.command} answered ${credential.data.apiVersion}, not ${config.apiVersion}`,
    );
  const { token, expirationTimestamp } = credential.data.status;
  if (!token)
    throw new ExecCredentialError(
      `exec plugin ${config.command} gave no token (client certificates are not supported here)`,
    );
  let expiresAt: number | undefined;
  if (expirationTimestamp !== undefined) {
    expiresAt = Date.parse(expirationTimestamp);
    if (Number.isNaN(expiresAt))
      throw new ExecCredentialError(
        `exec plugin ${config.command} gave an unreadable expirationTimestamp "${expirationTimestamp}"`,
      );
  }
  return { token, expiresAt };
}
