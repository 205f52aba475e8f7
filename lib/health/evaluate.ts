/**
 * Runs detectors over one snapshot: findings sorted worst first, plus each detector's samples. A detector that
 * throws becomes a finding of its own instead of taking the others down.
 */
import type { DerivedViews, Detector, DetectorContext, DetectorId, Finding, Snapshot } from '@/lib/health/types';
import { DETECTORS } from '@/lib/health/registry';
import { withInsight } from '@/lib/health/insight';
import { compareFindings } from '@/lib/health/finding-order';

/**
 * What one evaluation returns. `samples` has an entry per detector that produced samples; `derived` merges the
 * views the detectors computed (see {@link DerivedViews}), absent when none did.
 */
export interface Evaluation {
  findings: Finding[];
  samples: Partial<Record<DetectorId, Record<string, number | null>>>;
  derived?: DerivedViews;
}

function failureFinding(detector: Detector, error: unknown): Finding {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id: `${detector.id}:Detector//${detector.id}:failed`,
    detector: detector.id,
    // A blind spot on a failure mode is worth a warning; the detector's own findings are missing.
    severity: 'warning',
    subject: { kind: 'Detector', name: detector.id },
    title: `Detector "${detector.title}" failed`,
    summary: `The ${detector.title} detector threw while evaluating this snapshot, so its findings are missing: ${message}`,
    evidence: [{ kind: 'field', label: 'Error', value: message }],
    remediation: [],
  };
}

/**
 * Evaluates `detectors` (default: {@link DETECTORS}) on `snapshot` at `context.now`. Findings with the same id
 * (from one detector) are kept once; a throwing detector yields a warning `<id>:Detector//<id>:failed` and no samples.
 */
export function evaluate(
  snapshot: Snapshot,
  context: DetectorContext,
  detectors: readonly Detector[] = DETECTORS,
): Evaluation {
  const findings = new Map<string, Finding>();
  const samples: Evaluation['samples'] = {};
  let derived: DerivedViews | undefined;
  for (const detector of detectors) {
    try {
      const out = detector.detect(snapshot, context);
      for (const f of out.findings) if (!findings.has(f.id)) findings.set(f.id, withInsight(f, detector.insight));
      if (out.samples) samples[detector.id] = out.samples;
      if (out.derived) derived = { ...derived, ...out.derived };
    } catch (error) {
      const f = withInsight(failureFinding(detector, error), { ...detector.insight, impactType: 'Unknown' });
      findings.set(f.id, f);
    }
  }
  const sorted = [...findings.values()].sort(compareFindings);
  return derived ? { findings: sorted, samples, derived } : { findings: sorted, samples };
}
