/**
 * Update-health insights: the internal form every assessment emits, the alert-derived ones, and the final ordering
 * and filtering `oc adm upgrade status` applies before printing its "Update Health" section.
 */
import type {
  Alert,
  InsightCondition,
  InsightLevel,
  InsightSubject,
  UpdateInsight,
} from '@/lib/health/update-progress/types';
import { formatInstant, parseTime } from '@/lib/health/update-progress/util';

/** Numeric impact levels, in `oc`'s order (higher is worse). */
export const LEVEL = { info: 0, warning: 1, error: 2, critical: 3 } as const;

/** An insight before ordering; `startedAt` is epoch ms (absent when unknown). */
export interface RawInsight {
  /** Kind of insight (`co-unavailable`, `node-degraded`, ...); with the subject it forms the stable id. */
  key: string;
  startedAt?: number;
  level: number;
  impact: string;
  summary: string;
  description: string;
  reference: string;
  scope: UpdateInsight['scope'];
  subject?: InsightSubject;
  condition?: InsightCondition;
}

/** Alerts included even when they started firing before the update (`oc`'s allow-list). */
export const ALWAYS_SHOWN_ALERTS: readonly string[] = ['PodDisruptionBudgetAtLimit', 'PodDisruptionBudgetLimit'];

function alertLevel(severity: string): number {
  switch (severity) {
    case 'critical':
      return LEVEL.critical;
    case 'warning':
      return LEVEL.warning;
    default:
      return LEVEL.info;
  }
}

function alertDescription(alert: Alert, startedDuringUpdate: boolean): string {
  const known = ALWAYS_SHOWN_ALERTS.includes(alert.name);
  let description: string;
  if (known) {
    description = startedDuringUpdate
      ? 'Alert known to affect updates started firing during the update.'
      : 'Alert known to affect updates has been firing since before the update started.';
  } else {
    description = 'Alert started firing during the update.';
  }
  const { description: text, message } = alert.annotations;
  if (text && message) return `${description} The alert description is: ${text} | ${message}`;
  if (text || message) return `${description} The alert description is: ${text || message}`;
  return `${description} The alert has no description.`;
}

/**
 * Insights for alerts, as `oc` selects them: firing (not pending), severity warning or worse, and either started
 * after the update began or on the always-shown list (PodDisruptionBudget alerts block node drains).
 */
export function alertInsights(alerts: Alert[], updateStartedAt: number | undefined): RawInsight[] {
  const out: RawInsight[] = [];
  for (const alert of alerts) {
    if (!alert.name || alert.state === 'pending' || alert.state === 'inactive') continue;
    const activeAt = parseTime(alert.startsAt);
    const startedDuringUpdate = updateStartedAt !== undefined && activeAt !== undefined && activeAt > updateStartedAt;
    if (!startedDuringUpdate && !ALWAYS_SHOWN_ALERTS.includes(alert.name)) continue;
    const level = alertLevel(alert.severity || alert.labels.severity || '');
    if (level < LEVEL.warning) continue;
    const namespace = alert.labels.namespace;
    const instance = alert.labels.poddisruptionbudget || alert.labels.name || alert.labels.pod;
    out.push({
      key: instance ? `alert[${instance}]` : 'alert',
      startedAt: activeAt,
      level,
      impact: 'Unknown',
      summary: `Alert is firing: ${alert.annotations.summary || alert.name}`,
      description: alertDescription(alert, startedDuringUpdate),
      reference: alert.annotations.runbook_url || '<alert does not have a runbook_url annotation>',
      scope: 'Cluster',
      subject: { group: 'config.openshift.io', kind: 'Alert', name: alert.name, ...(namespace ? { namespace } : {}) },
    });
  }
  return out;
}

function levelName(level: number): InsightLevel {
  if (level >= LEVEL.error) return 'Error';
  if (level === LEVEL.warning) return 'Warning';
  return 'Info';
}

function insightId(insight: RawInsight): string {
  const subject = insight.subject;
  if (!subject) return insight.key;
  const kind = subject.kind.toLowerCase();
  const name = subject.namespace ? `${subject.namespace}/${subject.name}` : subject.name;
  return `${insight.key}:${kind}:${name}`;
}

function toInsight(raw: RawInsight): UpdateInsight {
  const insight: UpdateInsight = {
    id: insightId(raw),
    level: levelName(raw.level),
    impact: raw.impact,
    message: raw.summary,
    description: raw.description,
    since: formatInstant(raw.startedAt),
    scope: raw.scope,
  };
  if (raw.subject) insight.subject = raw.subject;
  if (raw.reference) insight.reference = raw.reference;
  if (raw.condition) insight.condition = raw.condition;
  return insight;
}

/**
 * Orders insights like `oc`: incomplete ones (no summary, description or reference) dropped, then worst level first,
 * newest first within a level, ties in emission order. With nothing to report, a single Info "Update is proceeding
 * well" dated at the update start.
 */
export function finalizeInsights(raw: RawInsight[], updateStartedAt: number | undefined): UpdateInsight[] {
  const complete = raw
    .map((insight, index) => ({ insight, index }))
    .filter(({ insight }) => insight.summary !== '' && insight.description !== '' && insight.reference !== '');
  complete.sort((a, b) => {
    if (a.insight.level !== b.insight.level) return b.insight.level - a.insight.level;
    const at = a.insight.startedAt ?? Number.NEGATIVE_INFINITY;
    const bt = b.insight.startedAt ?? Number.NEGATIVE_INFINITY;
    if (at !== bt) return bt - at;
    return a.index - b.index;
  });
  if (complete.length === 0) {
    return [
      {
        id: 'update-proceeding',
        level: 'Info',
        impact: 'None',
        message: 'Update is proceeding well',
        description: '',
        since: formatInstant(updateStartedAt),
        scope: 'ControlPlane',
      },
    ];
  }
  const seen = new Map<string, number>();
  return complete.map(({ insight }) => {
    const out = toInsight(insight);
    const count = seen.get(out.id) ?? 0;
    seen.set(out.id, count + 1);
    if (count > 0) out.id = `${out.id}#${count + 1}`;
    return out;
  });
}
