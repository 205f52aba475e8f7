import type { Scenario } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { historyEntry } from '../objects/cluster-version';
import { HOUR, MINUTE } from '../objects/time';

/** Version the steady cluster runs. */
export const STEADY_VERSION = '4.16.8';

/**
 * `steady`: a healthy 4.16 cluster with no update in flight. Every history version is in the FeatureGate and
 * pod-setup latency stays low; with the Default feature set, 4.16 runs no OLMv1 (a Technology Preview there).
 */
export const steadyScenario: Scenario = {
  name: 'steady',
  title: 'Healthy 4.16 cluster',
  description: 'A healthy OpenShift 4.16.8 cluster with no update in progress; nothing should be red.',
  failureAtMs: 0,
  start(context) {
    const now = context.clock.now();
    installBaseCluster(context, {
      version: STEADY_VERSION,
      history: [
        historyEntry(STEADY_VERSION, now - 20 * 24 * HOUR, now - 20 * 24 * HOUR + 95 * MINUTE),
        historyEntry('4.15.25', now - 75 * 24 * HOUR, now - 75 * 24 * HOUR + 88 * MINUTE),
        historyEntry('4.14.20', now - 160 * 24 * HOUR, now - 160 * 24 * HOUR + 41 * MINUTE, false),
      ],
    });
  },
};
