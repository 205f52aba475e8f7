/**
 * The finding history as one viewer may see it: the same rule as live findings (visible-health.ts). An episode is
 * shown when the viewer may read every object it was built from (its subject and the objects of its evidence, as
 * recorded), and, for a detector that restates a derived view, when that view is shown. What is withheld is counted.
 */
import type { ClusterHealthDto } from '@/lib/api/dto';
import type { TimelineEntryDto } from '@/lib/api/history-dto';
import type { StoredTimelineEntry } from '@/lib/history/timeline';
import { READ_EVERYTHING, accessForRef, uniqueChecks, type AccessAnswers, type AccessCheck } from './access-check';
import { derivedViewAccess, FINDINGS_OF_VIEW } from './derived-views';
import { hiddenViews, versionAccess } from './visible-health';

function entryChecks(entry: StoredTimelineEntry): (AccessCheck | undefined)[] {
  return [entry.subject, ...entry.refs].map(accessForRef);
}

/** Every question whose answer {@link visibleTimeline} may need (ask them all at once, then filter). */
export function timelineAccess(entries: readonly StoredTimelineEntry[], health: ClusterHealthDto): AccessCheck[] {
  return uniqueChecks([
    ...READ_EVERYTHING,
    versionAccess(health),
    ...entries.flatMap((entry) => entryChecks(entry).filter((check): check is AccessCheck => !!check)),
    ...Object.values(derivedViewAccess(health)).flat(),
  ]);
}

/** The entry without what is kept only for this filter. */
export function timelineEntryDto(entry: StoredTimelineEntry): TimelineEntryDto {
  const { refs: _refs, ...dto } = entry;
  void _refs;
  return dto;
}

/** The entries this viewer may see (without their recorded objects) and how many are withheld. */
export function visibleTimeline(
  entries: readonly StoredTimelineEntry[],
  health: ClusterHealthDto,
  allowed: AccessAnswers,
): { entries: TimelineEntryDto[]; hidden: number } {
  if (READ_EVERYTHING.every(allowed)) return { entries: entries.map(timelineEntryDto), hidden: 0 };
  const views = hiddenViews(health, allowed);
  const shown = entries.filter((entry) => {
    const view = FINDINGS_OF_VIEW[entry.detector];
    return entryChecks(entry).every((check) => !!check && allowed(check)) && !(view && views[view]);
  });
  return { entries: shown.map(timelineEntryDto), hidden: entries.length - shown.length };
}
