/**
 * The alert rules shipped with the deploy, checked by the real Prometheus tools: `promtool check rules` parses the
 * rendered PrometheusRule's groups, and `promtool test rules` plays series through them on Prometheus's own clock
 * (when each alert fires, with which labels, and the link it carries). The live path — the dashboard's /metrics,
 * Prometheus and Alertmanager — is app/metrics/alerts.integration.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { renderOpenShiftManifests, type Manifest } from './rendered-manifests';
import { alertRulesFile, renderedPrometheusRule } from './alert-rules';

const PROMTOOL = '/usr/bin/promtool';
const dir = mkdtempSync(join(tmpdir(), 'uh-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function promtool(...args: string[]): { ok: boolean; output: string } {
  if (!existsSync(PROMTOOL)) {
    throw new Error(`${PROMTOOL} is missing: install the Debian package "prometheus" (it ships promtool)`);
  }
  try {
    return { ok: true, output: execFileSync(PROMTOOL, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const rendered = renderOpenShiftManifests();
const rule = renderedPrometheusRule(rendered);
const target = { namespace: 'update-health', job: 'update-health', pod: 'update-health-0' };
const URL = 'https://update-health.apps.example.com';
const series = (name: string, labels: Record<string, string>, values: string) => ({
  series: `${name}{${Object.entries({ ...target, ...labels })
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',')}}`,
  values,
});
const info = series('update_health_dashboard_info', { public_url: URL }, '1x200');
const finding = (cluster: string, detector: string, mode: string, severity: string, values: string) =>
  series('update_health_finding', { cluster, detector, failure_mode: mode, severity }, values);
const link = (cluster: string, detector: string) =>
  `${URL}/clusters/${encodeURIComponent(cluster)}?panel=${detector}&finding=${detector}`;

describe('deploy/openshift/prometheusrule.yaml', () => {
  it('renders the three alerts in the app namespace, each with severity, summary, description and link', () => {
    const deployment = rendered.find((m) => m.kind === 'Deployment') as Manifest;
    expect(rule.metadata.namespace).toBe(deployment.metadata.namespace);
    const rules = rule.spec.groups.flatMap((group) => group.rules);
    expect(rules.map((r) => r.alert)).toEqual([
      'UpdateHealthCritical',
      'UpdateHealthWarning',
      'UpdateHealthUpdateNotProgressing',
    ]);
    for (const r of rules) {
      expect(r.labels.severity, r.alert).toMatch(/^(critical|warning)$/);
      expect(Object.keys(r.annotations).sort(), r.alert).toEqual(['description', 'runbook_url', 'summary']);
      expect(r.annotations.runbook_url, r.alert).toMatch(/^\{\{ \$labels\.public_url \}\}\/clusters\//);
    }
  });

  it('takes the public URL the dashboard exports from the one ConfigMap the kustomization generates', () => {
    const deployment = rendered.find((m) => m.kind === 'Deployment') as Manifest & {
      spec: { template: { spec: { containers: { env: { name: string; valueFrom?: unknown }[] }[] } } };
    };
    const env = deployment.spec.template.spec.containers[0].env.find((e) => e.name === 'UPDATE_HEALTH_PUBLIC_URL');
    const ref = (env?.valueFrom as { configMapKeyRef?: { name: string; key: string } })?.configMapKeyRef;
    expect(ref?.name).toMatch(/^update-health-public-url-/);
    const configMap = rendered.find((m) => m.kind === 'ConfigMap' && m.metadata.name === ref?.name) as Manifest & {
      data: Record<string, string>;
    };
    expect(configMap.data).toEqual({ [ref!.key]: '' });
  });

  it('parses (promtool check rules)', () => {
    writeFileSync(join(dir, 'rules.yml'), alertRulesFile());
    const result = promtool('check', 'rules', 'rules.yml');
    expect(result.output).toContain('SUCCESS: 3 rules found');
    expect(result.ok, result.output).toBe(true);
  });

  it('fires, links and resolves as designed (promtool test rules)', () => {
    writeFileSync(join(dir, 'rules.yml'), alertRulesFile());
    const base = { ...target, public_url: URL };
    const sliced = 'default/api-ci-example-com:6443/kube:admin';
    const tests = [
      {
        name: 'a critical finding pages after 5 minutes, one alert per cluster and detector, however many replicas',
        interval: '1m',
        input_series: [
          info,
          { ...info, series: info.series.replace('update-health-0', 'update-health-1') },
          finding('prod-east', 'status-write-rejection', 'B', 'critical', '1x20'),
          finding(sliced, 'pod-setup-latency', 'D', 'critical', '_x3 1x10 _x10'),
        ],
        alert_rule_test: [
          { eval_time: '4m', alertname: 'UpdateHealthCritical', exp_alerts: [] },
          {
            eval_time: '10m',
            alertname: 'UpdateHealthCritical',
            exp_alerts: [
              {
                exp_labels: {
                  ...base,
                  pod: undefined,
                  severity: 'critical',
                  cluster: sliced,
                  detector: 'pod-setup-latency',
                  failure_mode: 'D',
                },
                exp_annotations: {
                  summary: `Cluster ${sliced} has a critical pod-setup-latency finding.`,
                  description:
                    'Update Health has reported a critical pod-setup-latency finding (failure mode D) on cluster ' +
                    `${sliced} for 5 minutes. Do not start or continue an update or rollback of this cluster ` +
                    "before reading the finding's evidence and remediation.",
                  runbook_url: link(sliced, 'pod-setup-latency'),
                },
              },
              {
                exp_labels: {
                  ...base,
                  pod: undefined,
                  severity: 'critical',
                  cluster: 'prod-east',
                  detector: 'status-write-rejection',
                  failure_mode: 'B',
                },
                exp_annotations: {
                  summary: 'Cluster prod-east has a critical status-write-rejection finding.',
                  description:
                    'Update Health has reported a critical status-write-rejection finding (failure mode B) on ' +
                    'cluster prod-east for 5 minutes. Do not start or continue an update or rollback of this ' +
                    "cluster before reading the finding's evidence and remediation.",
                  runbook_url: link('prod-east', 'status-write-rejection'),
                },
              },
            ],
          },
          // the finding resolved at 13 min: its series ended, and so did the alert
          {
            eval_time: '20m',
            alertname: 'UpdateHealthCritical',
            exp_alerts: [
              {
                exp_labels: {
                  ...base,
                  pod: undefined,
                  severity: 'critical',
                  cluster: 'prod-east',
                  detector: 'status-write-rejection',
                  failure_mode: 'B',
                },
                exp_annotations: {
                  summary: 'Cluster prod-east has a critical status-write-rejection finding.',
                  description:
                    'Update Health has reported a critical status-write-rejection finding (failure mode B) on ' +
                    'cluster prod-east for 5 minutes. Do not start or continue an update or rollback of this ' +
                    "cluster before reading the finding's evidence and remediation.",
                  runbook_url: link('prod-east', 'status-write-rejection'),
                },
              },
            ],
          },
        ],
      },
      {
        name: 'a warning waits 15 minutes and stays quiet while the same detector is critical on the cluster',
        interval: '1m',
        input_series: [
          info,
          finding('a', 'catalog-replicas', 'C', 'warning', '1x30'),
          finding('b', 'catalog-replicas', 'C', 'warning', '1x30'),
          finding('b', 'catalog-replicas', 'C', 'critical', '1x30'),
        ],
        alert_rule_test: [
          { eval_time: '14m', alertname: 'UpdateHealthWarning', exp_alerts: [] },
          {
            eval_time: '20m',
            alertname: 'UpdateHealthWarning',
            exp_alerts: [
              {
                exp_labels: {
                  ...base,
                  pod: undefined,
                  severity: 'warning',
                  cluster: 'a',
                  detector: 'catalog-replicas',
                  failure_mode: 'C',
                },
                exp_annotations: {
                  summary: 'Cluster a has a catalog-replicas warning.',
                  description:
                    'Update Health has reported a catalog-replicas warning (failure mode C) on cluster a for 15 ' +
                    "minutes. It can turn into a failed update or rollback: read the finding's evidence before the " +
                    'next step.',
                  runbook_url: link('a', 'catalog-replicas'),
                },
              },
            ],
          },
        ],
      },
      {
        name: 'an update that stops progressing for an hour is reported; one that moves, or just started, is not',
        interval: '1m',
        input_series: [
          info,
          // stuck: workers at 30 % from minute 30 on
          series('update_health_cluster_update_phase', { cluster: 'stuck', phase: 'updating-workers' }, '1x180'),
          series('update_health_cluster_update_completion_ratio', { cluster: 'stuck', part: 'control_plane' }, '1x180'),
          series(
            'update_health_cluster_update_completion_ratio',
            { cluster: 'stuck', part: 'workers' },
            '0+0.01x30 0.3x150',
          ),
          // moving: one node in ten every 15 minutes
          series('update_health_cluster_update_phase', { cluster: 'moving', phase: 'updating-workers' }, '1x180'),
          series(
            'update_health_cluster_update_completion_ratio',
            { cluster: 'moving', part: 'workers' },
            Array.from({ length: 12 }, (_, i) => `${i / 10}x14`).join(' '),
          ),
          // idle for an hour, then an update that has not moved yet
          series('update_health_cluster_update_phase', { cluster: 'new', phase: 'idle' }, '1x60 _x120'),
          series(
            'update_health_cluster_update_phase',
            { cluster: 'new', phase: 'updating-control-plane' },
            '_x60 1x120',
          ),
          series('update_health_cluster_update_completion_ratio', { cluster: 'new', part: 'control_plane' }, '0.2x180'),
        ],
        alert_rule_test: [
          { eval_time: '85m', alertname: 'UpdateHealthUpdateNotProgressing', exp_alerts: [] },
          {
            eval_time: '100m',
            alertname: 'UpdateHealthUpdateNotProgressing',
            exp_alerts: [
              {
                exp_labels: {
                  ...base,
                  pod: undefined,
                  severity: 'warning',
                  cluster: 'stuck',
                  phase: 'updating-workers',
                },
                exp_annotations: {
                  summary: 'The update of cluster stuck has not progressed for an hour.',
                  description:
                    'Cluster stuck has been updating-workers for over an hour, and in that hour no ClusterOperator ' +
                    'and no worker node reached the target version. Look for a stuck operator, a drain that a ' +
                    'PodDisruptionBudget blocks, or a node that does not come back.',
                  runbook_url: `${URL}/clusters/stuck?panel=update-progress&finding=update-progress`,
                },
              },
            ],
          },
        ],
      },
    ];
    // A label set to undefined is one the alert must not carry (dropped by the aggregation); YAML leaves it out.
    const file = dump(
      { rule_files: ['rules.yml'], evaluation_interval: '1m', tests },
      { lineWidth: -1, skipInvalid: true },
    ).replace(/^\s+pod: null\n/gm, '');
    writeFileSync(join(dir, 'rules.test.yml'), file);
    const result = promtool('test', 'rules', 'rules.test.yml');
    expect(result.ok, result.output).toBe(true);
    expect(result.output).toContain('SUCCESS');
  });
});
