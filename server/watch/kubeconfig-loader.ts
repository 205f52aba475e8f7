import 'server-only';
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeCredentialsError } from './kube-errors';

/** A kubeconfig reduced to one context (`context`, or the current one). */
export function loadConfig(load: (kc: KubeConfig) => void, context?: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    load(kc);
  } catch (error) {
    throw new KubeCredentialsError(`cannot load kubeconfig: ${(error as Error).message}`, { cause: error });
  }
  if (context) {
    if (!kc.getContextObject(context)) throw new KubeCredentialsError(`kubeconfig has no context "${context}"`);
    kc.setCurrentContext(context);
  }
  return onlyCurrentContext(kc);
}

/**
 * A copy holding just the current context, its cluster and its user. A fleet kubeconfig has a context per cluster,
 * and the parser's strings are slices of the whole file: without the copy every cluster's transport would keep the
 * whole file (and every other cluster's credentials) alive, which grows with the square of the fleet.
 */
function onlyCurrentContext(kc: KubeConfig): KubeConfig {
  const name = kc.getCurrentContext();
  const context = kc.getContextObject(name);
  if (!context) return kc;
  const cluster = kc.getCluster(context.cluster);
  const user = kc.getUser(context.user);
  const slim = new KubeConfig();
  slim.loadFromOptions(
    JSON.parse(
      JSON.stringify({
        clusters: cluster ? [cluster] : [],
        users: user ? [user] : [],
        contexts: [context],
        currentContext: name,
      }),
    ) as Parameters<KubeConfig['loadFromOptions']>[0],
  );
  return slim;
}

const parsedFiles = new Map<string, { text: string; config: KubeConfig }>();

/**
 * Parses a kubeconfig file once per content, however many contexts are taken from it (a fleet kubeconfig is read
 * once per cluster at start, and again whenever a credential is rejected: only a changed file is parsed again).
 */
export function loadFileOnce(kc: KubeConfig, path: string): void {
  const text = readFileSync(path, 'utf8');
  let cached = parsedFiles.get(path);
  if (!cached || cached.text !== text) {
    const config = new KubeConfig();
    config.loadFromFile(path);
    cached = { text, config };
    parsedFiles.set(path, cached);
  }
  kc.loadFromOptions({
    clusters: cached.config.clusters,
    users: cached.config.users,
    contexts: cached.config.contexts,
    currentContext: cached.config.currentContext,
  });
}
