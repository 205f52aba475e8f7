import 'server-only';
import type { ClusterUpdateDto, FleetUpdatesDto } from '@/lib/api/history-dto';
import { clusterUpdates, fleetUpdates, updatesCsv, type UpdateSpan } from '@/lib/cluster/update-durations';
import { buildTimeline } from '@/lib/history/timeline';
import { healthFor, timelineFor } from './visibility';
import type { Viewer } from './identity';
import { getFleet, type FleetMember } from '@/server/engine/fleet';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { getFindingHistory } from '@/server/history/history-store';

/** Where the update durations read from (the process-wide fleet and history unless a test gives its own). */
export interface UpdateSources {
  members(): FleetMember[];
  history: FindingHistoryRepository;
  now(): number;
}

function processSources(): UpdateSources {
  const fleet = getFleet();
  return { members: () => fleet.members(), history: getFindingHistory(), now: Date.now };
}

/**
 * `GET /api/fleet/updates`: every update of every cluster this viewer may see the version history of, with the
 * findings (from the finding history, as the viewer may see them) open during each, and the fleet's p50/p95 per
 * from→to. `since` (epoch ms) keeps the updates that ended since then, and the ongoing ones.
 */
export async function fleetUpdatesFor(
  viewer: Viewer,
  since: number | null,
  sources: UpdateSources = processSources(),
): Promise<FleetUpdatesDto> {
  const perCluster = await Promise.all(
    sources.members().map(async (member) => {
      const health = await healthFor(viewer, member);
      // Without ClusterVersion access the history is withheld (empty): no update is listed, none is invented.
      if (!health) return [];
      const now = member.now();
      const spans = clusterUpdates(
        {
          clusterId: member.id,
          clusterName: member.name,
          history: health.cluster.history,
          updateState: health.updateState,
        },
        now,
      );
      if (spans.length === 0) return [];
      const from = Math.min(...spans.map((span) => Date.parse(span.startedAt)));
      const stored = buildTimeline(await sources.history.events(member.id, from, now), from, now);
      const { entries } = await timelineFor(viewer, member, stored);
      return spans.map((span): [UpdateSpan, ClusterUpdateDto['findings']] => {
        const start = Date.parse(span.startedAt);
        const end = span.completedAt ? Date.parse(span.completedAt) : now;
        const during = entries.filter(
          (entry) =>
            Date.parse(entry.openedAt) <= end && (entry.resolvedAt === null || Date.parse(entry.resolvedAt) >= start),
        );
        return [
          span,
          during.map(({ findingId, detector, title, severity }) => ({ findingId, detector, title, severity })),
        ];
      });
    }),
  );
  const pairs = perCluster.flat();
  const findings = new Map(pairs);
  return fleetUpdates(
    pairs.map(([span]) => span),
    (span) => findings.get(span) ?? [],
    since,
    sources.now(),
  );
}

/**
 * `GET /api/fleet/updates` as the viewer may see it: JSON, or CSV for `format=csv` (or, without a format, an
 * `Accept` asking for `text/csv`).
 */
export async function fleetUpdatesResponse(
  viewer: Viewer,
  query: { since: number | null; format?: 'json' | 'csv' },
  accept: string | null,
): Promise<FleetUpdatesDto | Response> {
  const updates = await fleetUpdatesFor(viewer, query.since);
  const csv = query.format === 'csv' || (!query.format && /\btext\/csv\b/.test(accept ?? ''));
  if (!csv) return updates;
  return new Response(updatesCsv(updates.updates), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="fleet-updates.csv"',
      'Cache-Control': 'no-store',
    },
  });
}
