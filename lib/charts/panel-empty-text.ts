import type { DetectorSpec } from '@/lib/charts/chart-spec';
import { hasQualifier } from '@/lib/health/shared/objects';

/** What an empty panel says when nothing tells why it is empty. */
export const NO_SAMPLES_TEXT = 'No samples in this range yet.';

/**
 * What a detector's panel says while it has no samples in range: the spec's reason only while the detector publishes
 * the finding that states it (a first scrape still running, or an idle cluster whose metrics are not read, is not
 * "no metrics source"), else that no sample came yet.
 */
export function panelEmptyText(spec: DetectorSpec, findings: readonly { id: string; detector: string }[]): string {
  const because = spec.emptyBecause;
  if (!because) return NO_SAMPLES_TEXT;
  const stated = findings.some((finding) => finding.detector === spec.id && hasQualifier(finding.id, because.reason));
  return stated ? because.text : NO_SAMPLES_TEXT;
}
