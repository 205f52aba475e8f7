/**
 * Every update a cluster went through, from its ClusterVersion `status.history` (start and completion per version)
 * and, for the update under way, the update state's phases; and the fleet's durations per from→to version pair
 * (p50/p95), against which an update is called slow. Pure: the server gives the clock and the findings.
 */
import type { ClusterHealthDto, UpdateStateDto } from '@/lib/api/dto';
import type { ClusterUpdateDto, FleetUpdatesDto, UpdatePairStatsDto } from '@/lib/api/history-dto';

type HistoryEntry = ClusterHealthDto['cluster']['history'][number];

/** One cluster's update facts: its id and name, ClusterVersion history (newest first) and update state. */
export interface UpdateSource {
  clusterId: string;
  clusterName: string;
  history: readonly HistoryEntry[];
  updateState?: UpdateStateDto;
}

/** An update before the findings and the fleet's comparison are added. */
export type UpdateSpan = Omit<ClusterUpdateDto, 'findings' | 'slowerThanP95'>;

const BUSY = new Set(['updating-control-plane', 'updating-workers', 'rolling-back', 'stalled', 'status-frozen']);

function phasesOf(state: UpdateStateDto | undefined, completed: boolean): ClusterUpdateDto['phases'] {
  if (completed && !state) return [{ name: 'control plane', kind: 'control-plane', percent: 100, done: true }];
  if (!state) return [];
  const controlPlane = state.controlPlane
    ? [{ name: 'control plane', kind: 'control-plane' as const, ...state.controlPlane }]
    : [];
  const pools = state.pools.map((pool) => ({
    name: pool.name,
    kind: 'pool' as const,
    percent: pool.total > 0 ? Math.round((100 * pool.updated) / pool.total) : null,
    done: pool.total > 0 && pool.updated === pool.total,
  }));
  return [...controlPlane, ...pools];
}

/**
 * The updates of one cluster, oldest first: every history entry but the installation (the oldest). The newest entry
 * is ongoing while its completion is not recorded or the update state says a part still moves to it (pools rolling
 * out after the control plane completed); an older Partial entry was abandoned for a newer target and ends where it
 * was superseded. `now` is epoch ms (the cluster's clock).
 */
export function clusterUpdates(source: UpdateSource, now: number): UpdateSpan[] {
  const { history, updateState } = source;
  const spans: UpdateSpan[] = [];
  for (let i = history.length - 2; i >= 0; i -= 1) {
    const entry = history[i];
    const start = entry.startedTime ? Date.parse(entry.startedTime) : NaN;
    if (!Number.isFinite(start)) continue;
    const from = history.slice(i + 1).find((older) => older.state === 'Completed')?.version ?? history[i + 1].version;
    const newest = i === 0;
    const stillMoving =
      newest && !!updateState && BUSY.has(updateState.phase) && updateState.targetVersion === entry.version;
    const recordedEnd = entry.completionTime ? Date.parse(entry.completionTime) : NaN;
    const supersededAt = newest ? NaN : Date.parse(history[i - 1].startedTime ?? '');
    const end = stillMoving
      ? NaN
      : Number.isFinite(recordedEnd)
        ? recordedEnd
        : Number.isFinite(supersededAt)
          ? supersededAt
          : NaN;
    const ongoing = !Number.isFinite(end);
    spans.push({
      clusterId: source.clusterId,
      clusterName: source.clusterName,
      from,
      to: entry.version,
      startedAt: new Date(start).toISOString(),
      completedAt: ongoing ? null : new Date(end).toISOString(),
      ongoing,
      durationSeconds: Math.max(0, Math.round(((ongoing ? now : end) - start) / 1_000)),
      state: entry.state,
      phases:
        newest && updateState
          ? phasesOf(updateState, !ongoing)
          : phasesOf(undefined, !ongoing && entry.state === 'Completed'),
    });
  }
  return spans;
}

/** Nearest-rank quantile of `values` (0 < q ≤ 1); null without values. */
export function nearestRank(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const pairKey = (span: Pick<UpdateSpan, 'from' | 'to'>) => `${span.from ?? ''}→${span.to}`;

/** Per from→to pair: clusters, completed and ongoing updates, p50/p95 of the completed ones; most updates first. */
export function updatePairStats(spans: readonly UpdateSpan[]): UpdatePairStatsDto[] {
  const pairs = new Map<string, UpdateSpan[]>();
  for (const span of spans) pairs.set(pairKey(span), [...(pairs.get(pairKey(span)) ?? []), span]);
  return [...pairs.values()]
    .map((list) => {
      const completed = list.filter((span) => !span.ongoing && span.state === 'Completed');
      const durations = completed.map((span) => span.durationSeconds);
      return {
        from: list[0].from,
        to: list[0].to,
        clusters: new Set(list.map((span) => span.clusterId)).size,
        completed: completed.length,
        ongoing: list.filter((span) => span.ongoing).length,
        p50Seconds: nearestRank(durations, 0.5),
        p95Seconds: nearestRank(durations, 0.95),
      };
    })
    .sort((a, b) => b.clusters - a.clusters || pairKey(a).localeCompare(pairKey(b)));
}

/**
 * The fleet's updates that ended at or after `since` (or are ongoing), with the findings open during each and
 * whether each is slower than the p95 of its pair (an ongoing one: already longer than it; without a pair p95, the
 * fleet's p95 of every completed update). Oldest start first.
 */
export function fleetUpdates(
  spans: readonly UpdateSpan[],
  findingsOf: (span: UpdateSpan) => ClusterUpdateDto['findings'],
  since: number | null,
  now: number,
): FleetUpdatesDto {
  const kept = spans.filter(
    (span) => since === null || span.ongoing || Date.parse(span.completedAt ?? span.startedAt) >= since,
  );
  const pairs = updatePairStats(kept);
  const byPair = new Map(pairs.map((pair) => [pairKey(pair), pair]));
  const fleetP95Seconds = nearestRank(
    kept.filter((span) => !span.ongoing && span.state === 'Completed').map((span) => span.durationSeconds),
    0.95,
  );
  const updates = kept
    .map((span) => {
      const bar = byPair.get(pairKey(span))?.p95Seconds ?? fleetP95Seconds;
      return { ...span, findings: findingsOf(span), slowerThanP95: bar !== null && span.durationSeconds > bar };
    })
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.clusterId.localeCompare(b.clusterId));
  return {
    since: since === null ? null : new Date(since).toISOString(),
    now: new Date(now).toISOString(),
    updates,
    pairs,
    fleetP95Seconds,
  };
}

const CSV_COLUMNS = [
  'cluster',
  'from',
  'to',
  'started',
  'completed',
  'ongoing',
  'duration_seconds',
  'state',
  'phases',
  'findings',
  'slower_than_p95',
] as const;

function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  // Quote what needs it; a leading formula character is neutralised so a spreadsheet shows it as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The updates as CSV (RFC 4180, CRLF line ends, a header row). */
export function updatesCsv(updates: FleetUpdatesDto['updates']): string {
  const rows = updates.map((update) =>
    [
      update.clusterId,
      update.from,
      update.to,
      update.startedAt,
      update.completedAt,
      update.ongoing,
      update.durationSeconds,
      update.state,
      update.phases.map((phase) => `${phase.name} ${phase.percent ?? '?'}%`).join('; '),
      update.findings.map((finding) => `${finding.severity} ${finding.title}`).join('; '),
      update.slowerThanP95,
    ]
      .map(csvField)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...rows].map((line) => `${line}\r\n`).join('');
}
