/**
 * Test support: the alert rules of deploy/openshift as Prometheus loads them — the `spec.groups` of the rendered
 * PrometheusRule, written as a plain rules file (what the Prometheus Operator hands Prometheus).
 */
import { dump } from 'js-yaml';
import { renderOpenShiftManifests, type Manifest } from './rendered-manifests';

/** One alerting rule as written in the PrometheusRule. */
export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** The rendered PrometheusRule of deploy/openshift. */
export function renderedPrometheusRule(rendered: readonly Manifest[] = renderOpenShiftManifests()): Manifest & {
  spec: { groups: { name: string; interval?: string; rules: AlertRule[] }[] };
} {
  const rules = rendered.filter((m) => m.kind === 'PrometheusRule');
  if (rules.length !== 1) throw new Error(`deploy/openshift renders ${rules.length} PrometheusRules, expected one`);
  return rules[0] as ReturnType<typeof renderedPrometheusRule>;
}

/**
 * The rules file Prometheus would load. `forScale` shortens every `for:` (e.g. 1/300 turns 5m into 1s) for a test that
 * runs in real time; expressions, labels and annotations stay as shipped.
 */
export function alertRulesFile(options: { forScale?: number } = {}): string {
  const groups = renderedPrometheusRule().spec.groups.map((group) => ({
    ...group,
    rules: group.rules.map((rule) =>
      rule.for && options.forScale !== undefined
        ? { ...rule, for: `${Math.max(1, Math.round(durationSeconds(rule.for) * options.forScale))}s` }
        : rule,
    ),
  }));
  return dump({ groups }, { lineWidth: -1 });
}

/** Seconds of a Prometheus duration made of `h`, `m` and `s` parts (`1h30m`, `5m`). */
export function durationSeconds(duration: string): number {
  const parts = [...duration.matchAll(/(\d+)(h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) {
    throw new Error(`unsupported duration "${duration}"`);
  }
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * { h: 3600, m: 60, s: 1 }[unit as 'h' | 'm' | 's'], 0);
}
