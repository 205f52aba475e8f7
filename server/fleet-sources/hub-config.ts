import 'server-only';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ServerEnv } from '@/server/env';
import { execConfigSchema } from '@/server/kube/exec-credential';
import { OCM_PROVIDER } from './hub-members';
import type { HubSourceOptions } from './hub-source';

/** The namespace of the dashboard's own service accounts, where its ClusterProfiles are bound by default. */
export const DEFAULT_HUB_NAMESPACE = 'openshift-update-health';

/** The hub setting cannot be used; the message says which and why. */
export class HubConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubConfigError';
  }
}

/** `FILE[:CONTEXT]` → file and context (a context name never holds a slash; a Windows drive letter is a file). */
export function parseHubArgument(value: string): { kubeconfig: string; context?: string } {
  const colon = value.lastIndexOf(':');
  if (colon <= 1) return { kubeconfig: value };
  const context = value.slice(colon + 1);
  if (!context || context.includes('/')) return { kubeconfig: value };
  return { kubeconfig: value.slice(0, colon), context };
}

const providersFileSchema = z.object({
  providers: z.array(z.object({ name: z.string(), execConfig: execConfigSchema })),
});

/** The exec plugin of the `open-cluster-management` provider in a Cluster Inventory access providers file. */
export function execProviderFrom(path: string): z.infer<typeof execConfigSchema> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HubConfigError(`cannot read access providers file ${path}: ${(error as Error).message}`);
  }
  const file = providersFileSchema.safeParse(parsed);
  if (!file.success)
    throw new HubConfigError(
      `access providers file ${path}: ${file.error.issues[0].path.join('.')}: ${file.error.issues[0].message}`,
    );
  const provider = file.data.providers.find((candidate) => candidate.name === OCM_PROVIDER);
  if (!provider) throw new HubConfigError(`access providers file ${path} has no "${OCM_PROVIDER}" provider`);
  return provider.execConfig;
}

/** The hub source's options from the server settings. */
export function hubSourceOptions(env: ServerEnv): HubSourceOptions {
  if (!env.UPDATE_HEALTH_HUB_KUBECONFIG) throw new HubConfigError('no hub kubeconfig is configured');
  return {
    ...parseHubArgument(env.UPDATE_HEALTH_HUB_KUBECONFIG),
    namespace: env.UPDATE_HEALTH_HUB_NAMESPACE ?? env.POD_NAMESPACE ?? DEFAULT_HUB_NAMESPACE,
    ...(env.UPDATE_HEALTH_HUB_MANAGED_SERVICE_ACCOUNT
      ? { managedServiceAccount: env.UPDATE_HEALTH_HUB_MANAGED_SERVICE_ACCOUNT }
      : {}),
    ...(env.UPDATE_HEALTH_HUB_PROXY_URL ? { proxy: { url: env.UPDATE_HEALTH_HUB_PROXY_URL } } : {}),
    ...(env.UPDATE_HEALTH_HUB_ACCESS_PROVIDERS_FILE
      ? { exec: execProviderFrom(env.UPDATE_HEALTH_HUB_ACCESS_PROVIDERS_FILE) }
      : {}),
  };
}
