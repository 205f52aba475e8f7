import type { DetectorSpec } from '@/lib/charts/chart-spec';
import { hasQualifier } from '@/lib/health/shared/objects';

/** What an empty panel says when nothing tells why it is empty. */
export const NO_SAMPLES_TEXT = 'No samples in this range yet.';

/**
 * What a detector's panel says while it has no samples in range: the words of the finding that states why, only while
 * the detector publishes it (a first scrape still running, or an idle cluster whose metrics are not read, is not
 * "no metrics source"), else that no sample came yet. The finding is the one home of those words.
 */
export function panelEmptyText(
  spec: DetectorSpec,
  findings: readonly { id: string; detector: string; title: string; summary: string }[],
): string {
  const reason = spec.emptyBecause;
  if (!reason) return NO_SAMPLES_TEXT;
  const stated = findings.find((finding) => finding.detector === spec.id && hasQualifier(finding.id, reason));
  return stated ? `${stated.title}. ${stated.summary}` : NO_SAMPLES_TEXT;
}
