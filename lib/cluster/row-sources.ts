/**
 * A fleet row's sources (see `rowSourcesSchema`): how they stand, built from the cluster's health, and what the
 * fleet's membership reads from them.
 */
import type { ClusterSummaryDto, RowSourceDto, RowSourcesDto, SourceStateDto } from '@/lib/api/dto';
import { sourceUpToDate } from '@/lib/health/tiers';

function rowSource({ resource, namespace, status, since, error }: SourceStateDto): RowSourceDto {
  return {
    resource,
    ...(namespace === undefined ? {} : { namespace }),
    status,
    since,
    ...(error === undefined ? {} : { error }),
  };
}

/** How a fleet row's sources stand: one pass over the health's sources, an object only for each one behind. */
export function rowSourcesOf(sources: readonly SourceStateDto[]): RowSourcesDto {
  let synced = 0;
  let since: string | undefined;
  const behind: RowSourceDto[] = [];
  for (const source of sources) {
    if (source.status === 'synced') synced += 1;
    else if (!sourceUpToDate(source)) behind.push(rowSource(source));
    if (since === undefined || source.since < since) since = source.since;
  }
  return { total: sources.length, synced, behind, ...(since === undefined ? {} : { since }) };
}

/**
 * Why a row waits to connect, and since when; undefined once one of its sources synced. The reason is the hub's
 * when it reports the cluster unavailable, else the first source behind with an error, else `connecting`; `since` is
 * the hub's, else the earliest `since` of the row's sources (absent without sources).
 */
export function rowWaiting(
  row: Pick<ClusterSummaryDto, 'sources' | 'reachability'>,
): { reason: string; since: string | undefined } | undefined {
  if (row.sources.synced > 0) return undefined;
  const failing = row.sources.behind.find((source) => source.error);
  const reason = row.reachability
    ? `hub reports unavailable${row.reachability.message ? `: ${row.reachability.message}` : ''}`
    : failing?.error
      ? `${failing.status}: ${failing.error.code ? `${failing.error.code} ` : ''}${failing.error.message}`
      : 'connecting';
  return { reason, since: row.reachability?.since ?? row.sources.since };
}
