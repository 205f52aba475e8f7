import 'server-only';
import { readFileSync, statSync } from 'node:fs';
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

const parsedFiles = new Map<string, { text: string; version: string; config: KubeConfig }>();

/**
 * Parses a kubeconfig file once per content, however many contexts are taken from it (a fleet kubeconfig is read
 * once per cluster at start, and again whenever a credential is rejected: only a changed file is parsed again).
 */
export function loadFileOnce(kc: KubeConfig, path: string): void {
  // A fleet's engines start together and each takes its context from the same file: 500 reads of a 1 MB file
  // blocked the event loop for 300 ms at start. The file is read again only when its stat says it changed.
  const stat = statSync(path);
  const version = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  let cached = parsedFiles.get(path);
  if (cached?.version !== version) {
    const text = readFileSync(path, 'utf8');
    if (!cached || cached.text !== text) {
      const config = new KubeConfig();
      config.loadFromFile(path);
      cached = { text, version, config };
    } else {
      cached = { ...cached, version };
    }
    parsedFiles.set(path, cached);
  }
  kc.loadFromOptions({
    clusters: cached.config.clusters,
    users: cached.config.users,
    contexts: cached.config.contexts,
    currentContext: cached.config.currentContext,
  });
}
