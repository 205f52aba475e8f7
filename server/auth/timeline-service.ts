import 'server-only';
import type { TimelineDto } from '@/lib/api/history-dto';
import { buildTimeline } from '@/lib/history/timeline';
import { healthFor, timelineFor } from './visibility';
import type { Viewer } from './identity';
import { getFleet, type FleetMember } from '@/server/engine/fleet';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { getFindingHistory } from '@/server/history/history-store';

const DAY_MS = 24 * 60 * 60 * 1_000;

/** Where the timeline reads from (the process-wide fleet and history unless a test gives its own). */
export interface TimelineSources {
  member(id: string): FleetMember | undefined;
  history: FindingHistoryRepository;
}

function processSources(): TimelineSources {
  const fleet = getFleet();
  return { member: (id) => fleet.get(id), history: getFindingHistory() };
}

/**
 * `GET /api/clusters/{id}/timeline`: the finding episodes overlapping [from, to] (epoch ms, cluster time; `to`
 * defaults to the cluster's now, `from` to a day before `to`) as this viewer may see them; undefined for a cluster
 * the viewer may not see or that does not exist (the route answers both with the same 404).
 */
export async function clusterTimeline(
  viewer: Viewer,
  id: string,
  query: { from?: number; to?: number },
  sources: TimelineSources = processSources(),
): Promise<TimelineDto | undefined> {
  const member = sources.member(id);
  if (!member || !(await healthFor(viewer, member))) return undefined;
  const to = query.to ?? member.now();
  const from = query.from ?? to - DAY_MS;
  const stored = buildTimeline(await sources.history.events(member.id, from, to), from, to);
  const { entries, hidden } = await timelineFor(viewer, member, stored);
  return {
    clusterId: member.id,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    entries,
    hiddenEntries: hidden,
  };
}
