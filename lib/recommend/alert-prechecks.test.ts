import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Alert } from '@/lib/health/update-progress/types';
import { alertPrechecks } from './alert-prechecks';

const EXAMPLES = join(process.cwd(), 'server/fixtures/oc-upgrade/recommend/examples');

function alert(labels: Record<string, string>, annotations: Record<string, string> = {}, state = 'firing'): Alert {
  return {
    name: labels.alertname,
    state,
    severity: labels.severity ?? '',
    startsAt: '2025-01-28T23:00:54Z',
    labels,
    annotations,
  };
}

/** Alerts of a real `/api/v1/alerts` answer (oc's 4.16.27-degraded-monitoring example). */
function realAlerts(): Alert[] {
  const doc = JSON.parse(readFileSync(join(EXAMPLES, '4.16.27-degraded-monitoring-alerts.json'), 'utf8')) as {
    data: { alerts: Alert[] };
  };
  return doc.data.alerts.map((a) => alert(a.labels, a.annotations, a.state));
}

describe('alertPrechecks', () => {
  it('names each firing alert of a category recommended/<Category>/<Alert>/<i>, counting across categories', () => {
    const names = alertPrechecks({ kind: 'alerts', alerts: realAlerts() }).map((p) => `${p.name}=${p.status}`);
    expect(names).toEqual([
      'recommended/CriticalAlerts/ClusterOperatorDown/0=False',
      'recommended/PodDisruptionBudgetAlerts/PodDisruptionBudgetAtLimit/1=False',
      'recommended/PodImagePullAlerts=True',
      'recommended/NodeAlerts=True',
      'recommended/UpdatePrecheckAlerts=True',
    ]);
  });

  it('ignores pending alerts and alerts of no category; all categories AsExpected', () => {
    const prechecks = alertPrechecks({
      kind: 'alerts',
      alerts: [
        alert({ alertname: 'KubeNodeNotReady', severity: 'warning' }, {}, 'pending'),
        alert({ alertname: 'Watchdog', severity: 'none' }),
      ],
    });
    expect(prechecks.every((p) => p.status === 'True' && p.reason === 'AsExpected')).toBe(true);
    expect(prechecks).toHaveLength(5);
  });

  it('an openShiftUpdatePrecheck alert is an UpdatePrecheckAlerts concern with its summary, description and runbook', () => {
    const [first] = alertPrechecks({
      kind: 'alerts',
      alerts: [
        alert(
          { alertname: 'OperatorHubSourceError', severity: 'warning', openShiftUpdatePrecheck: 'true' },
          { summary: 'The catalog source is failing', description: 'Pods of catalog x fail.' },
        ),
      ],
    });
    expect(first).toEqual({
      name: 'recommended/UpdatePrecheckAlerts/OperatorHubSourceError/0',
      status: 'False',
      reason: 'Alert:firing',
      acceptanceName: 'OperatorHubSourceError',
      message:
        'warning alert OperatorHubSourceError firing, suggesting issues worth investigating before updating the cluster. The catalog source is failing. The alert description is: Pods of catalog x fail. <alert does not have a runbook_url annotation>',
    });
  });

  it('a critical PodDisruptionBudgetLimit names its PDB and clears the PodDisruptionBudget AsExpected', () => {
    const prechecks = alertPrechecks({
      kind: 'alerts',
      alerts: [
        alert({
          alertname: 'PodDisruptionBudgetLimit',
          severity: 'critical',
          namespace: 'ns',
          poddisruptionbudget: 'pdb',
        }),
      ],
    });
    expect(prechecks[0].message).toContain(
      'Namespace=ns, PodDisruptionBudget=pdb. PodDisruptionBudgetLimit. The alert has no description.',
    );
    expect(prechecks.map((p) => p.name)).not.toContain('recommended/PodDisruptionBudgetAlerts');
  });

  it('missing alert data is one Unknown recommended/Alert; an error yields none', () => {
    expect(alertPrechecks({ kind: 'missing', reason: 'NoTestData', message: 'm' })).toEqual([
      {
        name: 'recommended/Alert',
        status: 'Unknown',
        reason: 'NoTestData',
        message: 'm',
        acceptanceName: 'AlertNoTestData',
      },
    ]);
    expect(alertPrechecks({ kind: 'error', message: 'x' })).toEqual([]);
  });
});
