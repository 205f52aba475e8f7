import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { dump } from 'js-yaml';

/** One cluster entry of a kubeconfig: cluster, user and context all share `name`. */
export interface KubeconfigEntry {
  name: string;
  server: string;
  caData: string;
  token: string;
}

/** A kubeconfig (YAML) with one context per entry; the first (or `current`) is the current context. */
export function buildKubeconfig(entries: KubeconfigEntry[], current?: string): string {
  return dump(
    {
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      clusters: entries.map((entry) => ({
        name: entry.name,
        cluster: { server: entry.server, 'certificate-authority-data': entry.caData },
      })),
      users: entries.map((entry) => ({ name: entry.name, user: { token: entry.token } })),
      contexts: entries.map((entry) => ({ name: entry.name, context: { cluster: entry.name, user: entry.name } })),
      'current-context': current ?? entries[0]?.name ?? '',
    },
    { lineWidth: -1, noRefs: true },
  );
}

/** Writes a kubeconfig file (mode 0600), creating parent directories. */
export function writeKubeconfig(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o600 });
}
