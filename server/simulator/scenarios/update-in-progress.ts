import type { Scenario } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { historyEntry } from '../objects/cluster-version';
import { buildPod } from '../objects/pods';
import { releaseImage, stableChannel } from '../objects/releases';
import { HOUR, MINUTE, SECOND } from '../objects/time';
import { createWithStatus, mutateObject } from '../objects/write';

/** Version the cluster updates from. */
export const UIP_FROM_VERSION = '4.15.30';
/** Version the cluster updates to. */
export const UIP_TO_VERSION = '4.16.9';
/** When the admin starts the update (`oc adm upgrade --to=4.16.9`). */
export const UIP_UPDATE_REQUESTED_AT_MS = 1 * MINUTE;
/** The ClusterOperator that is Degraded for a while during the update, and the window. */
export const UIP_DEGRADED_OPERATOR = 'authentication';
/** Window in which the authentication operator reports Degraded=True (36 min: ClusterOperatorDegraded, `for: 30m`, fires from 34 min). */
export const UIP_DEGRADED_WINDOW = { fromMs: 4 * MINUTE, toMs: 40 * MINUTE } as const;
/** By then the worker pool has started and worker-1 is stuck draining (a PDB at its limit protects payments-api). */
export const UIP_SLOW_DRAIN_FROM_MS = 16 * MINUTE;
/** By then the control plane has finished (ClusterVersion history Completed); workers keep updating. */
export const UIP_CONTROL_PLANE_DONE_BY_MS = 32 * MINUTE;
/** When the application owner scales payments-api to 2, letting the drain finish. */
export const UIP_SLOW_DRAIN_RESOLVED_AT_MS = 85 * MINUTE;
/** By then every worker runs 4.16.9 and the worker pool is Updated. */
export const UIP_WORKERS_DONE_BY_MS = 97 * MINUTE;
/** The workload whose PDB blocks the slow drain. */
export const UIP_BLOCKING_WORKLOAD = { namespace: 'payments', name: 'payments-api' } as const;

/**
 * `update-in-progress`: 4.15.30 → 4.16.9. ClusterOperators move to the target one by one (authentication Degraded for
 * a while), the master pool and then the workers update node by node; worker-1 stays Draining for over an hour
 * because payments-api runs one replica behind a minAvailable: 1 PDB, until its owner scales it up.
 */
export const updateInProgressScenario: Scenario = {
  name: 'update-in-progress',
  title: 'Update 4.15 → 4.16 in progress, one node slow to drain',
  description:
    'A 4.15.30 → 4.16.9 update: operators roll over one by one (authentication Degraded for a while), pools update node ' +
    'by node, and one worker stays Draining for over an hour behind a PDB at its limit.',
  failureAtMs: UIP_SLOW_DRAIN_FROM_MS,
  start(context) {
    const start = context.clock.now();
    const base = installBaseCluster(context, {
      version: UIP_FROM_VERSION,
      history: [
        historyEntry(UIP_FROM_VERSION, start - 30 * 24 * HOUR, start - 30 * 24 * HOUR + 79 * MINUTE),
        historyEntry('4.14.31', start - 95 * 24 * HOUR, start - 95 * 24 * HOUR + 73 * MINUTE),
      ],
      namespaces: [UIP_BLOCKING_WORKLOAD.namespace],
    });
    const [w0, w1, w2] = base.nodes.worker;
    createPaymentsApp(context);
    base.deployments.manage({
      namespace: UIP_BLOCKING_WORKLOAD.namespace,
      name: UIP_BLOCKING_WORKLOAD.name,
      eligibleNodes: () => [w1, w2, w0],
      readyAfterMs: () => 30 * SECOND,
    });

    const poolOptions = { version: UIP_TO_VERSION, rebootMs: 3 * MINUTE, expectedFor: base.expectedFor };
    base.cvo.expectUpdate({
      target: UIP_TO_VERSION,
      stepMs: 20 * SECOND,
      externallyUpdated: ['machine-config'],
      onOperatorStarted: (name) => {
        if (name !== 'machine-config') return;
        base.fleet.setProgressing('machine-config', UIP_TO_VERSION);
        base.mco.updatePool('master', {
          ...poolOptions,
          onPoolDone: () => base.fleet.setVersion('machine-config', UIP_TO_VERSION),
        });
        base.mco.updatePool('worker', poolOptions);
      },
    });
    context.clock.setTimeout(() => {
      mutateObject(context.as('oc'), 'clusterversions', 'version', undefined, (cv) => {
        const spec = cv.spec as Record<string, unknown>;
        spec.channel = stableChannel(UIP_TO_VERSION);
        spec.desiredUpdate = { force: false, image: releaseImage(UIP_TO_VERSION), version: UIP_TO_VERSION };
        return cv;
      });
    }, UIP_UPDATE_REQUESTED_AT_MS);
    context.clock.setTimeout(
      () =>
        base.fleet.setCondition(UIP_DEGRADED_OPERATOR, {
          type: 'Degraded',
          status: 'True',
          reason: 'OAuthServerDeployment_UnavailablePod',
          message:
            'OAuthServerDeploymentDegraded: 1 of 3 requested instances are unavailable for oauth-openshift.openshift-authentication ()',
        }),
      UIP_DEGRADED_WINDOW.fromMs,
    );
    context.clock.setTimeout(
      () =>
        base.fleet.setCondition(UIP_DEGRADED_OPERATOR, {
          type: 'Degraded',
          status: 'False',
          reason: 'AsExpected',
          message: 'All is well',
        }),
      UIP_DEGRADED_WINDOW.toMs,
    );
    context.clock.setTimeout(() => {
      mutateObject(
        context.as('kubectl-edit'),
        'deployments',
        UIP_BLOCKING_WORKLOAD.name,
        UIP_BLOCKING_WORKLOAD.namespace,
        (deployment) => {
          (deployment.spec as { replicas: number }).replicas = 2;
          return deployment;
        },
      );
    }, UIP_SLOW_DRAIN_RESOLVED_AT_MS);
  },
};

/** payments-api: one replica behind a minAvailable: 1 PDB (a drain can never evict it). */
function createPaymentsApp(context: Parameters<Scenario['start']>[0]): void {
  const { namespace, name } = UIP_BLOCKING_WORKLOAD;
  const template = buildPod({
    name,
    namespace,
    nodeName: '',
    labels: { app: name },
    containers: [
      {
        name: 'api',
        image: 'registry.example.com/payments/api@sha256:' + '7a'.repeat(32),
        ports: [{ containerPort: 8080 }],
      },
    ],
  });
  const spec = template.spec as Record<string, unknown>;
  delete spec.nodeName;
  createWithStatus(context.as('kubectl-client-side-apply'), 'deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: { app: name } }, spec },
    },
  });
  createWithStatus(context.as('kubectl-client-side-apply'), 'poddisruptionbudgets', {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec: { minAvailable: 1, selector: { matchLabels: { app: name } } },
  });
}
