/**
 * Release history as the cluster-version operator (ClusterVersion `status.history`) and HyperShift (HostedCluster
 * `status.version.history`) record it, read off plain JSON.
 */

/**
 * One release-history entry. Every field is as written, `undefined` when absent or not a string: the CVO leaves
 * `version` empty when it could not read the release image, and `completionTime` unset while the entry is Partial.
 */
export interface ReleaseHistoryEntry {
  version?: string;
  image?: string;
  state?: string;
  startedTime?: string;
  completionTime?: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The release history of a ClusterVersion (`status.history`) or a HostedCluster (`status.version.history`; a
 * ClusterVersion has no `status.version`): newest first, as served, entries that are not objects dropped.
 */
export function historyOf(object: unknown): ReleaseHistoryEntry[] {
  const status = (object as { status?: unknown } | null | undefined)?.status as
    { history?: unknown; version?: { history?: unknown } | null } | null | undefined;
  const history = Array.isArray(status?.history) ? status.history : status?.version?.history;
  if (!Array.isArray(history)) return [];
  return history.flatMap((raw: unknown) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
    const h = raw as Record<string, unknown>;
    const entry: ReleaseHistoryEntry = {};
    for (const key of ['version', 'image', 'state', 'startedTime', 'completionTime'] as const) {
      const value = str(h[key]);
      if (value !== undefined) entry[key] = value;
    }
    return [entry];
  });
}

/** The version a release image's tag names (`quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64` → `4.16.3`). */
export function versionOfReleaseImage(image: string | undefined): string | undefined {
  return image ? /:(\d+\.\d+\.\d+[^@-]*)(?:-[a-z0-9_]+)?$/.exec(image)?.[1] : undefined;
}
