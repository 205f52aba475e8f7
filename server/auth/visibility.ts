import 'server-only';
import type {
  ClusterHealthDto,
  ClusterListDto,
  ClusterSeriesDto,
  ClusterSummaryDto,
  FleetMembershipDto,
  StreamMessage,
} from '@/lib/api/dto';
import type { IncidentDto } from '@/lib/api/incident-dto';
import {
  CLUSTER_METRICS_ACCESS,
  READ_EVERYTHING,
  accessForRef,
  uniqueChecks,
  type AccessAnswers,
  type AccessCheck,
} from '@/lib/access/access-check';
import { incidentAccess, visibleIncident } from '@/lib/access/visible-incident';
import { MUST_GATHER_ADMIN_PATH, isMustGatherClusterId } from '@/lib/api/must-gather-dto';
import {
  clusterVisible,
  detectorAccess,
  detectorReadable,
  healthAccess,
  seriesAccess,
  visibleHealth,
  visibleSeries,
} from '@/lib/access/visible-health';
import { viewerDiscoveredBy, viewerSourceNames, viewerSourceStatus } from '@/lib/access/source-names';
import { summaryOf } from '@/lib/cluster/cluster-summary';
import { rowSynced } from '@/lib/health/tiers';
import { timelineAccess, timelineEntryDto, visibleTimeline } from '@/lib/access/visible-timeline';
import type { TimelineEntryDto } from '@/lib/api/history-dto';
import type { StoredTimelineEntry } from '@/lib/history/timeline';
import { DETECTORS } from '@/lib/health/registry';
import type { FleetMember } from '@/server/engine/fleet';
import type { StreamSource } from '@/server/http/sse';
import { getAuthService } from './auth-service';
import { viewerName, type Viewer } from './identity';

/**
 * The one visibility filter, applied where data leaves the server: routes, the SSE stream and incidents call these
 * and nothing else decides what a viewer sees. The local operator (`--auth none`) sees everything unchanged.
 */

function answers(viewer: Viewer, memberId: string, checks: readonly AccessCheck[]): Promise<AccessAnswers> {
  return getAuthService().answers(viewer, memberId, checks);
}

/** The member's health for this viewer, or undefined when the viewer may not see the cluster at all. */
export async function healthFor(
  viewer: Viewer,
  member: Pick<FleetMember, 'id' | 'health'>,
): Promise<ClusterHealthDto | undefined> {
  const health = member.health();
  if (viewer.kind === 'local') return health;
  const allowed = await answers(viewer, member.id, healthAccess(health, DETECTORS));
  return clusterVisible(health, DETECTORS, allowed) ? viewerSourceNames(visibleHealth(health, allowed)) : undefined;
}

/**
 * The ids among `ids` that this viewer may not see: unknown ones and hidden ones alike, in the order asked, so a
 * caller answers both the same way (a hidden cluster must not be told apart from one that does not exist).
 */
export async function unseenClusters(
  viewer: Viewer,
  ids: readonly string[],
  member: (id: string) => FleetMember | undefined,
): Promise<string[]> {
  const seen = await Promise.all(
    ids.map(async (id) => {
      const found = member(id);
      return !!found && !!(await healthFor(viewer, found));
    }),
  );
  return ids.filter((_, i) => !seen[i]);
}

/** The fleet rows this viewer may see, counted from what they may see. */
export async function summariesFor(viewer: Viewer, members: readonly FleetMember[]): Promise<ClusterSummaryDto[]> {
  if (viewer.kind === 'local') return members.map((member) => member.summary());
  const rows = await Promise.all(
    members.map(async (member) => {
      const health = await healthFor(viewer, member);
      return health ? summaryOf(health) : undefined;
    }),
  );
  return rows.filter((row): row is ClusterSummaryDto => !!row);
}

/**
 * `GET /api/clusters` for this viewer: the rows they may see, and the fleet's membership counted over those rows.
 * Clusters found but without a row (no access provider) cannot be asked who may see them, so only the local
 * operator sees them named; anyone else gets their number. Source errors (a hub unreachable) are everyone's to see.
 */
export async function clusterListFor(
  viewer: Viewer,
  fleet: { members(): FleetMember[]; membership(rows?: readonly ClusterSummaryDto[]): FleetMembershipDto },
): Promise<ClusterListDto> {
  const members = fleet.members();
  if (viewer.kind === 'local') {
    const clusters = members.map((member) => member.summary());
    return { clusters, membership: fleet.membership(clusters) };
  }
  const clusters = await summariesFor(viewer, members);
  const membership = fleet.membership();
  const rowIds = new Set(members.map((member) => member.id));
  const visible = new Set(clusters.map((row) => row.id));
  // Rows the viewer sees are theirs to count and name; clusters without a row are counted only.
  const waiting = membership.waiting
    .filter((entry) => visible.has(entry.id))
    .map((entry) => ({ ...entry, discoveredBy: viewerDiscoveredBy(entry.discoveredBy) }));
  const waitingHidden = membership.waiting.filter((entry) => !rowIds.has(entry.id)).length;
  return {
    clusters,
    membership: {
      discovered: clusters.length + waitingHidden,
      connected: clusters.length - waiting.length,
      synced: clusters.filter(rowSynced).length,
      waiting,
      waitingHidden,
      sources: membership.sources.map(viewerSourceStatus),
    },
  };
}

/** Chart series for this viewer (call only for a member `healthFor` showed). */
export async function seriesFor(viewer: Viewer, memberId: string, series: ClusterSeriesDto): Promise<ClusterSeriesDto> {
  if (viewer.kind === 'local') return series;
  return visibleSeries(series, DETECTORS, await answers(viewer, memberId, seriesAccess(series, DETECTORS)));
}

/**
 * Finding-history entries of a member for this viewer (call only for a member `healthFor` showed): the same rule as
 * live findings, derived views judged on the member's current health; withheld entries are counted.
 */
export async function timelineFor(
  viewer: Viewer,
  member: Pick<FleetMember, 'id' | 'health'>,
  entries: readonly StoredTimelineEntry[],
): Promise<{ entries: TimelineEntryDto[]; hidden: number }> {
  if (viewer.kind === 'local') return { entries: entries.map(timelineEntryDto), hidden: 0 };
  const health = member.health();
  return visibleTimeline(entries, health, await answers(viewer, member.id, timelineAccess(entries, health)));
}

/** Whether the viewer may see cluster-wide metrics of a member (the service queries them with its own identity). */
export async function mayReadClusterMetrics(viewer: Viewer, memberId: string): Promise<boolean> {
  if (viewer.kind === 'local') return true;
  return (await answers(viewer, memberId, [CLUSTER_METRICS_ACCESS]))(CLUSTER_METRICS_ACCESS);
}

/** Why the viewer may not see a member's cluster-wide metrics, or undefined when they may. */
export async function clusterMetricsRefusal(viewer: Viewer, memberId: string): Promise<string | undefined> {
  if (await mayReadClusterMetrics(viewer, memberId)) return undefined;
  return "cluster-wide metrics need list pods at the cluster scope; ask for cluster-reader or use the console's namespace metrics";
}

/** Why the viewer may not see a rollback plan for a cluster whose health they see, or undefined when they may. */
export function rollbackPlanRefusal(health: ClusterHealthDto): string | undefined {
  const lacking = health.access?.hiddenViews?.rollbackPlan;
  if (!lacking) return undefined;
  return `a rollback plan needs read access to everything it checks; missing: ${lacking.join(', ')}`;
}

/** Why the viewer may not get a non-resource URL of the service (as kube-rbac-proxy asks), or undefined. */
export async function pathRefusal(viewer: Viewer, path: string): Promise<string | undefined> {
  if (await getAuthService().mayGetPath(viewer, path)) return undefined;
  return `User "${viewerName(viewer) ?? ''}" may not get the non-resource URL ${path}`;
}

/**
 * An incident for this reader, or undefined when there is none or they may not see its cluster. An incident frozen
 * from a must-gather, or of a cluster no longer in the fleet, belongs to no fleet cluster: only its creator and the
 * must-gather administrators may read it.
 */
export async function incidentFor(viewer: Viewer, incident: IncidentDto | undefined): Promise<IncidentDto | undefined> {
  if (!incident || viewer.kind === 'local') return incident;
  // A cluster that left the fleet (a ManagedCluster deleted) cannot be asked any more: its incidents stay readable
  // as a must-gather's are, by their creator and the must-gather administrators.
  if (isMustGatherClusterId(incident.cluster.id) || !getAuthService().governs(incident.cluster.id)) {
    if (incident.createdBy !== null && incident.createdBy === viewerName(viewer)) return incident;
    return (await getAuthService().mayGetPath(viewer, MUST_GATHER_ADMIN_PATH)) ? incident : undefined;
  }
  const allowed = await answers(viewer, incident.cluster.id, incidentAccess(incident, DETECTORS));
  if (!clusterVisible(incident.health, DETECTORS, allowed)) return undefined;
  const visible = visibleIncident(incident, DETECTORS, allowed);
  return { ...visible, health: viewerSourceNames(visible.health) };
}

async function messageFor(
  viewer: Viewer,
  message: StreamMessage,
  visible: (id: string) => Promise<boolean>,
): Promise<StreamMessage | undefined> {
  if (message.type === 'health') {
    const health = await healthFor(viewer, { id: message.clusterId, health: () => message.health });
    return health ? { ...message, health, summary: summaryOf(health) } : undefined;
  }
  // Sources publish health, samples and transitions; a summary is derived after this filter, never before it.
  if (message.type === 'summary' || message.type === 'summary-patch') return undefined;
  if (!(await visible(message.clusterId))) return undefined;
  if (message.type === 'samples') {
    const detector = DETECTORS.find((candidate) => candidate.id === message.detector);
    if (!detector) return undefined;
    const allowed = await answers(
      viewer,
      message.clusterId,
      uniqueChecks([...READ_EVERYTHING, ...detectorAccess(detector)]),
    );
    return detectorReadable(detector, allowed) ? message : undefined;
  }
  const allowed = await answers(
    viewer,
    message.clusterId,
    message.transitions.flatMap((t) => {
      const check = accessForRef(t.ref);
      return check ? [check] : [];
    }),
  );
  const transitions = message.transitions.filter((t) => {
    const check = accessForRef(t.ref);
    return !!check && allowed(check);
  });
  return transitions.length ? { ...message, transitions } : undefined;
}

/**
 * The stream as this viewer may see it. Messages are filtered in order (one queue per stream), so a client never
 * sees a stale health after a fresher one; clusters the viewer may not see send nothing at all.
 */
export function streamFor(
  viewer: Viewer,
  source: StreamSource,
  member: (id: string) => FleetMember | undefined,
): StreamSource {
  if (viewer.kind === 'local') return source;
  const visible = async (id: string) => {
    const found = member(id);
    return !!found && !!(await healthFor(viewer, found));
  };
  return {
    snapshot: async () => {
      const messages = await Promise.all(
        (await source.snapshot()).map((message) => messageFor(viewer, message, visible)),
      );
      return messages.filter((message): message is StreamMessage => !!message);
    },
    subscribe: (listener) => {
      let queue = Promise.resolve();
      let open = true;
      const unsubscribe = source.subscribe((message) => {
        queue = queue
          .then(async () => {
            const filtered = await messageFor(viewer, message, visible);
            if (filtered && open) listener(filtered);
          })
          .catch(() => undefined);
      });
      return () => {
        open = false;
        unsubscribe();
      };
    },
  };
}
