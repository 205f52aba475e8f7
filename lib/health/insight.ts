import type { ObjectRef } from '@/lib/k8s/types';
import type { Finding, FindingInsight, InsightImpactType, InsightScopeType, Severity } from './types';

/** What a detector's findings impact, where, and where to read more: oc's health-insight terms. */
export interface DetectorInsight {
  impactType: InsightImpactType;
  scopeType: InsightScopeType;
  referenceUrl: string;
}

const LEVEL: Record<Severity, FindingInsight['level']> = {
  critical: 'Critical',
  warning: 'Warning',
  info: 'Info',
  ok: 'Info',
};

/** References kept on an insight's scope: the subject first, then evidence objects, each once. */
const MAX_RESOURCES = 10;

const key = (ref: ObjectRef) => `${ref.apiVersion ?? ''}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;

/**
 * The finding with oc's health-insight vocabulary beside our severity: impact level from the severity (critical →
 * Critical, warning → Warning, info/ok → Info), impact type and scope from the detector unless the finding set its
 * own, scope resources from the subject and the evidence, and the detector's reference URL.
 */
export function withInsight(finding: Finding, defaults: DetectorInsight): Finding {
  if (finding.insight) return finding;
  const resources: ObjectRef[] = [];
  const seen = new Set<string>();
  for (const ref of [finding.subject, ...finding.evidence.flatMap((e) => (e.ref ? [e.ref] : []))]) {
    if (ref.kind === 'Detector' || seen.has(key(ref)) || resources.length >= MAX_RESOURCES) continue;
    seen.add(key(ref));
    resources.push(ref);
  }
  return {
    ...finding,
    insight: {
      level: LEVEL[finding.severity],
      impactType: finding.severity === 'ok' ? 'None' : defaults.impactType,
      scope: { type: defaults.scopeType, resources },
      referenceUrl: defaults.referenceUrl,
    },
  };
}
