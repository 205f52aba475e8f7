/**
 * From stored lifecycle events to the timeline the API serves and the cluster page draws. Pure.
 */
import type { ObjectRefDto } from '@/lib/api/dto';
import type { TimelineEntryDto } from '@/lib/api/history-dto';
import type { FindingEvent } from './finding-lifecycle';

/** A timeline entry with the objects it was built from (for the visibility filter; not sent). */
export interface StoredTimelineEntry extends TimelineEntryDto {
  refs: ObjectRefDto[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Groups events into episodes (one per finding and opening) overlapping [from, to] (epoch ms): opened at or before
 * `to`, not resolved before `from`. Changes after `to` are left out, and so is a resolution after `to` (the entry is
 * open as of `to`). Oldest opening first.
 */
export function buildTimeline(events: readonly FindingEvent[], from: number, to: number): StoredTimelineEntry[] {
  const episodes = new Map<string, FindingEvent[]>();
  for (const event of events) {
    const key = `${event.findingId}\u0000${event.openedAt}`;
    const list = episodes.get(key);
    if (list) list.push(event);
    else episodes.set(key, [event]);
  }
  const entries: StoredTimelineEntry[] = [];
  for (const list of episodes.values()) {
    list.sort((a, b) => a.at - b.at);
    const opened = list.find((event) => event.kind === 'opened');
    // Retention deleted the opening of an episode that ended long ago: nothing left to show.
    if (!opened || opened.openedAt > to) continue;
    const resolved = list.find((event) => event.kind === 'resolved');
    if (resolved && resolved.at < from) continue;
    const within = list.filter((event) => event.at <= to);
    const last = within[within.length - 1] ?? opened;
    const refs = new Map<string, ObjectRefDto>();
    for (const event of within)
      for (const ref of event.refs) refs.set(`${ref.kind}|${ref.namespace ?? ''}|${ref.name}`, ref);
    entries.push({
      findingId: opened.findingId,
      detector: opened.detector,
      subject: opened.subject,
      title: last.title,
      severity: last.severity,
      openedSeverity: opened.severity,
      openedAt: iso(opened.openedAt),
      resolvedAt: resolved && resolved.at <= to ? iso(resolved.at) : null,
      changes: within
        .filter((event) => event.kind === 'severity' || event.kind === 'evidence')
        .map((event) => ({
          kind: event.kind as 'severity' | 'evidence',
          at: iso(event.at),
          severity: event.severity,
          digest: event.digest,
        })),
      refs: [...refs.values()],
    });
  }
  return entries.sort((a, b) => a.openedAt.localeCompare(b.openedAt) || a.findingId.localeCompare(b.findingId));
}

/** The entries open at `at` (epoch ms), each with its severity then. */
export function openAt<E extends TimelineEntryDto>(entries: readonly E[], at: number): E[] {
  return entries
    .filter(
      (entry) => Date.parse(entry.openedAt) <= at && (entry.resolvedAt === null || Date.parse(entry.resolvedAt) > at),
    )
    .map((entry) => {
      const changes = entry.changes.filter((change) => Date.parse(change.at) <= at);
      const severity = changes.length ? changes[changes.length - 1].severity : entry.openedSeverity;
      return { ...entry, severity };
    });
}
