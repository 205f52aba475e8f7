import type { FindingDto, SeverityDto } from '@/lib/api/dto';
import { compareFindings } from '@/lib/health/finding-order';

/** Severities worst first; the index is the sort rank. */
export const SEVERITY_RANK: readonly SeverityDto[] = ['critical', 'warning', 'info', 'ok'];

/** Sort rank of a severity: 0 = critical (worst). */
export function severityRank(s: SeverityDto): number {
  return SEVERITY_RANK.indexOf(s);
}

/**
 * Findings in the one order detectors use ({@link compareFindings}: severity, observed before predicted, onset, id):
 * never by title, whose numbers move between evaluations, so live updates do not reorder the list.
 */
export function sortFindings(findings: readonly FindingDto[]): FindingDto[] {
  return [...findings].sort(compareFindings);
}

/** The worst severity among findings (`ok` when there are none). */
export function worstSeverity(findings: readonly Pick<FindingDto, 'severity'>[]): SeverityDto {
  return findings.reduce<SeverityDto>((w, f) => (severityRank(f.severity) < severityRank(w) ? f.severity : w), 'ok');
}

/** The worst severity per detector id, for panel headers. */
export function worstByDetector(findings: readonly FindingDto[]): Record<string, SeverityDto> {
  const out: Record<string, SeverityDto> = {};
  for (const f of findings)
    if (!out[f.detector] || severityRank(f.severity) < severityRank(out[f.detector])) out[f.detector] = f.severity;
  return out;
}
