/**
 * The alert prechecks of `oc adm upgrade recommend` (openshift/oc pkg/cli/admin/upgrade/recommend/alerts.go):
 * every firing alert of a category becomes a False condition named `recommended/<Category>/<Alert>/<i>`, and each
 * category with nothing firing a True `recommended/<Category>` condition with reason `AsExpected`.
 */
import type { PrecheckDto } from '@/lib/api/recommend-dto';
import type { Alert } from '@/lib/health/update-progress/types';

/** What is known about the cluster's alerts. */
export type AlertEvidence =
  | { kind: 'alerts'; alerts: readonly Alert[] }
  /** No alert data at all (oc's mock runs: `recommended/Alert=Unknown`, reason `NoTestData`). */
  | { kind: 'missing'; reason: string; message: string }
  /** Alerts could not be read (oc: "Failed to check for at least some preconditions"). */
  | { kind: 'error'; message: string };

const NODE_ALERTS = new Set([
  'KubeletHealthState',
  'KubeNodeNotReady',
  'KubeNodeReadinessFlapping',
  'KubeNodeUnreachable',
]);
const VIRT_ALERTS = new Set(['VirtHandlerDaemonSetRolloutFailing', 'VMCannotBeEvicted']);

/** oc's "summary. The alert description is: ... runbook" text of one alert. */
function details(alert: Alert, name: string): string {
  const { summary: rawSummary, description, message, runbook_url: runbookUrl } = alert.annotations;
  let summary = rawSummary || name;
  if (!summary.endsWith('.')) summary += '.';
  let text: string;
  if (message && description) text = ` The alert description is: ${description} | ${message}`;
  else if (description) text = ` The alert description is: ${description}`;
  else if (message) text = ` The alert description is: ${message}`;
  else text = ' The alert has no description.';
  return `${summary}${text} ${runbookUrl || '<alert does not have a runbook_url annotation>'}`;
}

function pdbPrefix(alert: Alert): string {
  return `Namespace=${alert.labels.namespace ?? ''}, PodDisruptionBudget=${alert.labels.poddisruptionbudget ?? ''}. `;
}

interface Category {
  name: string;
  matches: (alert: Alert, name: string) => boolean;
  consequence: string;
  prefix?: (alert: Alert) => string;
}

const SLOW_REDISTRIBUTION = 'which may slow workload redistribution during rolling node updates.';

/** In oc's order of precedence: the first category that matches an alert takes it. */
const CATEGORIES: readonly Category[] = [
  {
    name: 'CriticalAlerts',
    matches: (alert) => alert.labels.severity === 'critical',
    consequence: 'suggesting significant cluster issues worth investigating.',
    prefix: (alert) => (alert.labels.alertname === 'PodDisruptionBudgetLimit' ? pdbPrefix(alert) : ''),
  },
  {
    name: 'PodDisruptionBudgetAlerts',
    matches: (_, name) => name === 'PodDisruptionBudgetAtLimit',
    consequence: 'which might slow node drains.',
    prefix: pdbPrefix,
  },
  {
    name: 'PodImagePullAlerts',
    matches: (_, name) => name === 'KubeContainerWaiting',
    consequence: SLOW_REDISTRIBUTION,
  },
  { name: 'NodeAlerts', matches: (_, name) => NODE_ALERTS.has(name), consequence: SLOW_REDISTRIBUTION },
  {
    name: 'UpdatePrecheckAlerts',
    matches: (alert) => alert.labels.openShiftUpdatePrecheck === 'true',
    consequence: 'suggesting issues worth investigating before updating the cluster.',
  },
  { name: 'VirtAlerts', matches: (_, name) => VIRT_ALERTS.has(name), consequence: SLOW_REDISTRIBUTION },
];

/** The True condition of a category with nothing firing (VirtAlerts has none). */
const AS_EXPECTED: readonly [string, string][] = [
  ['CriticalAlerts', 'No critical alerts firing.'],
  ['PodDisruptionBudgetAlerts', 'No PodDisruptionBudget alerts firing.'],
  ['PodImagePullAlerts', 'No Pod container image pull alerts firing.'],
  ['NodeAlerts', 'No Node alerts firing.'],
  ['UpdatePrecheckAlerts', 'No alerts with the openShiftUpdatePrecheck label true are firing.'],
];

function precheck(name: string, status: string, reason: string, message: string, acceptanceName?: string): PrecheckDto {
  return acceptanceName === undefined
    ? { name, status, reason, message }
    : { name, status, reason, message, acceptanceName };
}

/**
 * oc's alert prechecks, in oc's order: one False condition per firing alert of a category (pending alerts and
 * alerts of no category are ignored), then a True `AsExpected` condition per category with none. A critical
 * `PodDisruptionBudgetLimit` counts as critical and as a PodDisruptionBudget alert, as in oc.
 */
export function alertPrechecks(evidence: AlertEvidence): PrecheckDto[] {
  if (evidence.kind === 'error') return [];
  if (evidence.kind === 'missing')
    return [precheck('recommended/Alert', 'Unknown', evidence.reason, evidence.message, 'AlertNoTestData')];
  const out: PrecheckDto[] = [];
  const seen = new Set<string>();
  let index = 0;
  for (const alert of evidence.alerts) {
    const name = alert.labels.alertname ?? '';
    if (!name || alert.state === 'pending') continue;
    const category = CATEGORIES.find((c) => c.matches(alert, name));
    if (!category) continue;
    seen.add(category.name);
    if (category.name === 'CriticalAlerts' && name === 'PodDisruptionBudgetLimit')
      seen.add('PodDisruptionBudgetAlerts');
    const severity = alert.labels.severity ?? '';
    const message = `${severity} alert ${name} ${alert.state}, ${category.consequence} ${category.prefix?.(alert) ?? ''}${details(alert, name)}`;
    out.push(precheck(`recommended/${category.name}/${name}/${index}`, 'False', `Alert:${alert.state}`, message, name));
    index += 1;
  }
  for (const [category, message] of AS_EXPECTED) {
    if (!seen.has(category)) out.push(precheck(`recommended/${category}`, 'True', 'AsExpected', message));
  }
  return out;
}
