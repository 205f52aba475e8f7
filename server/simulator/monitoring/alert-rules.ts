import type { Condition } from '@/lib/k8s/types';
import { conditionsOf, transitionTimeMs } from '@/lib/k8s/conditions';
import type { SimClient } from '../types';

/** One alert instance an expression yields: its labels and, when the objects record it, since when it holds. */
export interface RuleInstance {
  labels: Record<string, string>;
  /** When the condition behind it last changed (epoch ms), used to back-date the first evaluation. */
  since?: number;
}

/** An alerting rule as the PrometheusRule defines it, with its expression evaluated over cluster objects. */
export interface AlertRule {
  alert: string;
  forMs: number;
  labels: Record<string, string>;
  annotations: (labels: Record<string, string>) => Record<string, string>;
  evaluate: (client: SimClient) => RuleInstance[];
}

const MINUTE = 60_000;
/** The namespace of the CVO's metrics target, which `max by (namespace, name, reason)` keeps. */
const CVO_NAMESPACE = 'openshift-cluster-version';
const RUNBOOKS = 'https://github.com/openshift/runbooks/blob/master/alerts';

function moreInfo(name: string): string {
  return name === 'version' ? 'oc adm upgrade' : `oc get -o yaml clusteroperator ${name}`;
}

/**
 * `ClusterOperatorDown` (CVO PrometheusRule, server/fixtures/cvo/install/4.18):
 * `max by (namespace, name, reason) (cluster_operator_up{job="cluster-version-operator"} == 0)` for 10m, critical.
 * `cluster_operator_up` is 0 while the operator's Available condition is not True; `reason` is that condition's.
 */
const clusterOperatorDown: AlertRule = {
  alert: 'ClusterOperatorDown',
  forMs: 10 * MINUTE,
  labels: { severity: 'critical' },
  annotations: (l) => ({
    summary: 'Cluster operator has not been available for 10 minutes.',
    description: `The ${l.name} operator may be down or disabled because ${l.reason}, and the components it manages may be unavailable or degraded.  Cluster upgrades may not complete. For more information refer to '${moreInfo(l.name)}'.`,
    runbook_url: `${RUNBOOKS}/cluster-monitoring-operator/ClusterOperatorDown.md`,
  }),
  evaluate: (client) =>
    client.readList('clusteroperators').flatMap((co) => {
      const available = conditionsOf(co).find((c) => c.type === 'Available');
      if (available?.status === 'True') return [];
      return [
        {
          labels: { name: co.metadata.name, namespace: CVO_NAMESPACE, reason: available?.reason ?? '' },
          since: transitionTimeMs(available),
        },
      ];
    }),
};

/**
 * `ClusterOperatorDegraded`: Degraded=True of an operator (Failing=True of ClusterVersion `version`), grouped by
 * (namespace, name, reason), for 30m, warning.
 */
const clusterOperatorDegraded: AlertRule = {
  alert: 'ClusterOperatorDegraded',
  forMs: 30 * MINUTE,
  labels: { severity: 'warning' },
  annotations: (l) => ({
    summary: 'Cluster operator has been degraded for 30 minutes.',
    description: `The ${l.name} operator is degraded because ${l.reason}, and the components it manages may have reduced quality of service.  Cluster upgrades may not complete. For more information refer to '${moreInfo(l.name)}'.`,
    runbook_url: `${RUNBOOKS}/cluster-monitoring-operator/ClusterOperatorDegraded.md`,
  }),
  evaluate: (client) => {
    const out: RuleInstance[] = [];
    for (const co of client.readList('clusteroperators')) {
      const degraded = conditionsOf(co).find((c) => c.type === 'Degraded' && c.status === 'True');
      if (degraded)
        out.push({
          labels: { name: co.metadata.name, namespace: CVO_NAMESPACE, reason: degraded.reason ?? '' },
          since: transitionTimeMs(degraded),
        });
    }
    const cv = client.read('clusterversions', 'version');
    const failing = cv && conditionsOf(cv).find((c) => c.type === 'Failing' && c.status === 'True');
    if (failing)
      out.push({
        labels: { name: 'version', namespace: CVO_NAMESPACE, reason: failing.reason ?? '' },
        since: transitionTimeMs(failing),
      });
    return out;
  },
};

interface PdbStatus {
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: Condition[];
}

function pdbInstances(client: SimClient, test: (status: PdbStatus) => boolean): RuleInstance[] {
  return client.readList('poddisruptionbudgets').flatMap((pdb) => {
    const status = (pdb.status ?? {}) as PdbStatus;
    if (!test(status)) return [];
    const blocked = status.conditions?.find((c) => c.type === 'DisruptionAllowed' && c.status === 'False');
    return [
      {
        labels: { namespace: pdb.metadata.namespace ?? '', poddisruptionbudget: pdb.metadata.name },
        since: transitionTimeMs(blocked),
      },
    ];
  });
}

/**
 * `PodDisruptionBudgetAtLimit` (kube-controller-manager operator's rules, from kube-state-metrics series):
 * `max by (namespace, poddisruptionbudget) (kube_poddisruptionbudget_status_current_healthy ==
 * kube_poddisruptionbudget_status_desired_healthy and on (namespace, poddisruptionbudget)
 * kube_poddisruptionbudget_status_expected_pods > 0)` for 60m, warning.
 */
const pdbAtLimit: AlertRule = {
  alert: 'PodDisruptionBudgetAtLimit',
  forMs: 60 * MINUTE,
  labels: { severity: 'warning' },
  annotations: () => ({
    summary: 'The pod disruption budget is preventing further disruption to pods.',
    description:
      'The pod disruption budget is at the minimum disruptions allowed level. The number of current healthy pods is equal to the desired healthy pods.',
    runbook_url: `${RUNBOOKS}/cluster-kube-controller-manager-operator/PodDisruptionBudgetAtLimit.md`,
  }),
  evaluate: (client) => pdbInstances(client, (s) => s.currentHealthy === s.desiredHealthy && (s.expectedPods ?? 0) > 0),
};

/** `PodDisruptionBudgetLimit`: current_healthy < desired_healthy for 15m, critical. */
const pdbLimit: AlertRule = {
  alert: 'PodDisruptionBudgetLimit',
  forMs: 15 * MINUTE,
  labels: { severity: 'critical' },
  annotations: () => ({
    summary: 'The pod disruption budget registers insufficient amount of pods.',
    description:
      'The pod disruption budget is below the minimum disruptions allowed level and is not satisfied. The number of current healthy pods is less than the desired healthy pods.',
    runbook_url: `${RUNBOOKS}/cluster-kube-controller-manager-operator/PodDisruptionBudgetLimit.md`,
  }),
  evaluate: (client) => pdbInstances(client, (s) => (s.currentHealthy ?? 0) < (s.desiredHealthy ?? 0)),
};

/** The rules the embedded cluster's monitoring evaluates. */
export const ALERT_RULES: readonly AlertRule[] = [clusterOperatorDown, clusterOperatorDegraded, pdbAtLimit, pdbLimit];
