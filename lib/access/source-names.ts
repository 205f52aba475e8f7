import type { ClusterHealthDto, DiscoveredByDto, FleetMembershipDto } from '@/lib/api/dto';

type SourceStatusDto = FleetMembershipDto['sources'][number];

/** The last segment of a file path (`/home/sre/.kube/fleet.yaml` → `fleet.yaml`), either separator. */
export function fileBaseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || path;
}

/**
 * Where a cluster was found, as a viewer sees it: a kubeconfig by its file's base name. The full path says how the
 * server's disk is laid out, which is the operator's to know, not every logged-in viewer's.
 */
export function viewerDiscoveredBy(discoveredBy: DiscoveredByDto): DiscoveredByDto {
  return discoveredBy.kind === 'kubeconfig' ? { ...discoveredBy, name: fileBaseName(discoveredBy.name) } : discoveredBy;
}

/** A cluster's health with its {@link viewerDiscoveredBy} (the fleet row derived from it follows). */
export function viewerSourceNames(health: ClusterHealthDto): ClusterHealthDto {
  const { discoveredBy } = health.cluster;
  if (discoveredBy?.kind !== 'kubeconfig') return health;
  return { ...health, cluster: { ...health.cluster, discoveredBy: viewerDiscoveredBy(discoveredBy) } };
}

/**
 * A fleet source's status as a viewer sees it: a kubeconfig by its base name, and its error without the detail
 * (a parser's message quotes lines of the file, credentials included); the detail is in the server log.
 */
export function viewerSourceStatus(status: SourceStatusDto): SourceStatusDto {
  if (status.kind !== 'kubeconfig') return status;
  const name = fileBaseName(status.name);
  if (!status.error) return { ...status, name };
  const message = `the kubeconfig ${name} cannot be read now; the clusters read before are kept`;
  return { ...status, name, error: { message, since: status.error.since } };
}
