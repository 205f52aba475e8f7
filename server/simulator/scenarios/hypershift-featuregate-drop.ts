import type { Scenario } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { FeatureGateConsumerPods } from '../controllers/crash-loop';
import { historyEntry } from '../objects/cluster-version';
import { releaseImage } from '../objects/releases';
import { HOUR, MINUTE, SECOND } from '../objects/time';
import { mutateObject } from '../objects/write';

/** Version the hosted cluster runs before the update. */
export const HYPERSHIFT_FROM_VERSION = '4.14.38';
/** Version of the z-stream update. */
export const HYPERSHIFT_TO_VERSION = '4.14.39';
/** When HostedCluster.spec.release changes and the hosted ClusterVersion asks for 4.14.39. */
export const HYPERSHIFT_UPDATE_REQUESTED_AT_MS = 1 * MINUTE;
/** By then the 4.14.39 control-plane operator has replaced FeatureGate status with only 4.14.39. */
export const HYPERSHIFT_FEATUREGATE_DROPPED_BY_MS = 2 * MINUTE;
/** By then components still on 4.14.38 crash-loop and the update has stalled (node-tuning never completes). */
export const HYPERSHIFT_STALLED_BY_MS = 8 * MINUTE;
/** Namespace, DaemonSet and container of the crash-looping consumer pods (one per worker). */
export const HYPERSHIFT_CRASHLOOP_PODS = {
  namespace: 'openshift-cluster-node-tuning-operator',
  daemonSet: 'tuned',
  container: 'tuned',
} as const;
/** The ClusterOperator the stalled update waits on. */
export const HYPERSHIFT_STUCK_OPERATOR = 'node-tuning';

/**
 * `hypershift-featuregate-drop`: a hosted cluster updating 4.14.38 → 4.14.39 whose control-plane operator replaces
 * FeatureGate status with only the incoming version. Components still on 4.14.38 crash-loop with library-go's
 * `missing desired version "4.14.38"` error and the update stalls midway.
 */
export const hypershiftFeatureGateDropScenario: Scenario = {
  name: 'hypershift-featuregate-drop',
  title: 'HyperShift FeatureGate drops the outgoing version',
  description:
    'Hosted cluster 4.14.38 → 4.14.39: the control plane writes FeatureGate status with only 4.14.39; tuned pods still on ' +
    '4.14.38 crash-loop and the update stalls waiting on node-tuning.',
  failureAtMs: 3 * MINUTE,
  start(context) {
    const start = context.clock.now();
    const base = installBaseCluster(context, {
      version: HYPERSHIFT_FROM_VERSION,
      hosted: true,
      workers: 3,
      history: [
        historyEntry(HYPERSHIFT_FROM_VERSION, start - 12 * 24 * HOUR, start - 12 * 24 * HOUR + 34 * MINUTE),
        historyEntry('4.14.37', start - 41 * 24 * HOUR, start - 41 * 24 * HOUR + 29 * MINUTE),
      ],
      featureGateMode: 'hypershift-keep',
    });
    const tuned = new FeatureGateConsumerPods(context, {
      ...HYPERSHIFT_CRASHLOOP_PODS,
      version: HYPERSHIFT_FROM_VERSION,
    });
    tuned.start(base.nodes.worker);
    base.cvo.expectUpdate({ target: HYPERSHIFT_TO_VERSION, stepMs: 20 * SECOND, stuck: [HYPERSHIFT_STUCK_OPERATOR] });

    context.clock.setTimeout(() => {
      mutateObject(context.as('hosted-cluster-config-operator'), 'clusterversions', 'version', undefined, (cv) => {
        (cv.spec as Record<string, unknown>).desiredUpdate = {
          force: false,
          image: releaseImage(HYPERSHIFT_TO_VERSION),
          version: HYPERSHIFT_TO_VERSION,
        };
        return cv;
      });
    }, HYPERSHIFT_UPDATE_REQUESTED_AT_MS);
    // the new control-plane operator rolls out shortly after the control plane starts updating
    context.clock.setTimeout(
      () => base.featureGates.setMode('hypershift-replace'),
      HYPERSHIFT_UPDATE_REQUESTED_AT_MS + 45 * SECOND,
    );
    context.clock.setTimeout(() => {
      base.fleet.setCondition(HYPERSHIFT_STUCK_OPERATOR, {
        type: 'Degraded',
        status: 'True',
        reason: 'TunedDegraded',
        message: `DaemonSet "${HYPERSHIFT_CRASHLOOP_PODS.daemonSet}" has ${base.nodes.worker.length} unavailable pods: container ${HYPERSHIFT_CRASHLOOP_PODS.container} is in CrashLoopBackOff`,
      });
      base.fleet.setCondition(HYPERSHIFT_STUCK_OPERATOR, {
        type: 'Available',
        status: 'False',
        reason: 'TunedUnavailable',
        message: `DaemonSet "${HYPERSHIFT_CRASHLOOP_PODS.daemonSet}" has no available Pod(s)`,
      });
    }, 6 * MINUTE);
    context.clock.setTimeout(() => {
      base.cvo.setCondition({
        type: 'Failing',
        status: 'True',
        reason: 'ClusterOperatorDegraded',
        message: `Cluster operator ${HYPERSHIFT_STUCK_OPERATOR} is degraded`,
      });
    }, 16 * MINUTE);
  },
};
