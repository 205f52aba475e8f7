import 'server-only';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { execCredentialSource, type ExecConfig } from '@/server/kube/exec-credential';
import type { FleetSource, MemberSpec, SourceStatus } from './fleet-source';

/** Options of {@link kubeconfigSource}. */
export interface KubeconfigSourceOptions {
  /** Only these contexts (`--context`); every context when empty. */
  contexts?: readonly string[];
  /** Quiet time after a change before the file is read (editors write in several steps). Default 250 ms. */
  debounceMs?: number;
  /** A re-read however quiet the watcher was (file systems that do not report changes). Default 30 s. */
  pollMs?: number;
  now?: () => number;
  /** Where a failure goes in full (path and detail; viewers see the file's base name only). Default `console.warn`. */
  warn?: (message: string) => void;
}

/** The members one kubeconfig text describes: one per context (or per chosen context); throws on a bad file. */
export function kubeconfigMembers(
  path: string,
  text: string,
  contexts: readonly string[] = [],
  since: string = new Date().toISOString(),
): MemberSpec[] {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  const discoveredBy = { kind: 'kubeconfig' as const, name: path };
  const available = kc.getContexts();
  const chosen = contexts.length > 0 ? contexts : available.map((context) => context.name);
  return chosen.map((name): MemberSpec => {
    const context = available.find((candidate) => candidate.name === name);
    const cluster = context ? kc.getCluster(context.cluster) : null;
    if (!context || !cluster) {
      const reason = context
        ? `context "${name}" names cluster "${context.cluster}", which the kubeconfig does not define`
        : `the kubeconfig has no context "${name}"`;
      return { id: name, name, discoveredBy, waiting: { reason, since } };
    }
    const user = context.user ? kc.getUser(context.user) : null;
    // A token edited in place is picked up on the next 401 (the transport re-reads the file), so it does not
    // rebuild the cluster's watches; anything else about the context does.
    const { token: _token, ...userShape } = user ?? { name: '' };
    void _token;
    const fingerprint = JSON.stringify([context, cluster, userShape]);
    const exec = user?.exec as ExecConfig | undefined;
    return {
      id: name,
      name,
      discoveredBy,
      fingerprint,
      connection: {
        kind: 'kubeconfig',
        path,
        context: name,
        ...(exec
          ? {
              credentials: execCredentialSource(exec, {
                cluster: {
                  server: cluster.server,
                  ...(cluster.caData ? { 'certificate-authority-data': cluster.caData } : {}),
                  ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
                },
              }),
            }
          : {}),
      },
    };
  });
}

/**
 * A kubeconfig file as a live fleet source: every context is a member, and a context added, removed or edited
 * takes effect without a restart (the file's directory is watched, so an editor's or `kubectl config`'s
 * replace-by-rename is seen too). A file that cannot be read or parsed keeps the last good set and says why.
 */
export function kubeconfigSource(path: string, options: KubeconfigSourceOptions = {}): FleetSource {
  const now = options.now ?? Date.now;
  let status: SourceStatus = { kind: 'kubeconfig', name: path };
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  /** The text of the last good read: the source is listed once there is one. */
  let lastText: string | undefined;
  let stopped = false;
  let reading = Promise.resolve();
  let report: (members: readonly MemberSpec[]) => void = () => undefined;

  const warn = options.warn ?? ((message: string) => console.warn(`Update Health: ${message}`));
  const fail = (message: string) => {
    if (status.error?.message === message) return;
    status = { ...status, error: { message, since: new Date(now()).toISOString() } };
    warn(message);
  };
  const read = async () => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      fail(`cannot read ${path}: ${(error as Error).message}`);
      return;
    }
    take(text);
  };
  const take = (text: string) => {
    if (stopped || text === lastText) return;
    let members: MemberSpec[];
    try {
      members = kubeconfigMembers(path, text, options.contexts, new Date(now()).toISOString());
    } catch (error) {
      fail(`cannot parse ${path}: ${(error as Error).message}; keeping the clusters read before`);
      return;
    }
    lastText = text;
    status = { kind: 'kubeconfig', name: path };
    report(members);
  };
  const schedule = (delayMs: number) => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      reading = reading.then(read);
    }, delayMs);
    debounce.unref?.();
  };
  return {
    start(onChange) {
      report = onChange;
      // The first read is synchronous: the fleet has its members before it answers anything.
      try {
        take(readFileSync(path, 'utf8'));
      } catch (error) {
        fail(`cannot read ${path}: ${(error as Error).message}`);
      }
      try {
        watcher = watch(dirname(path), (_event, file) => {
          if (!file || file === basename(path)) schedule(options.debounceMs ?? 250);
        });
        watcher.on('error', (error) => fail(`cannot watch ${path}: ${error.message}`));
        watcher.unref?.();
      } catch (error) {
        fail(`cannot watch ${path}: ${(error as Error).message}`);
      }
      const tick = () => {
        poll = setTimeout(() => {
          reading = reading.then(read).then(tick);
        }, options.pollMs ?? 30_000);
        poll.unref?.();
      };
      tick();
    },
    status: () => (lastText !== undefined ? status : { ...status, listing: true }),
    stop() {
      stopped = true;
      watcher?.close();
      clearTimeout(debounce);
      clearTimeout(poll);
    },
  };
}
