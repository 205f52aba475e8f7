import type { ScenarioName } from '@/server/simulator/types';

/** How an SRE acts on the finding once the evidence is read. */
export type DemoEnding = 'rollback-guide' | 'incident' | 'none';

/** One narrated walkthrough: which finding the SRE follows and where the path ends. */
export interface DemoScenario {
  name: ScenarioName;
  title: string;
  /** The finding to open; undefined for a cluster with nothing to act on. */
  detector?: string;
  severities?: readonly string[];
  ending: DemoEnding;
}

/** In the order their stories reach the failure, so a run seldom waits on the clock. */
export const DEMO_SCENARIOS: readonly DemoScenario[] = [
  { name: 'steady', title: 'A healthy cluster: nothing to act on', ending: 'none' },
  {
    name: 'extension-install-flap',
    title: 'A ClusterExtension install that keeps failing',
    detector: 'install-settling',
    severities: ['warning', 'critical'],
    ending: 'incident',
  },
  {
    name: 'hypershift-featuregate-drop',
    title: 'A hosted cluster whose FeatureGate lost its versions',
    detector: 'featuregate-coverage',
    severities: ['critical'],
    ending: 'incident',
  },
  {
    name: 'catalogd-rollout',
    title: 'catalogd unavailable during a drain',
    detector: 'catalog-replicas',
    severities: ['warning', 'critical'],
    ending: 'incident',
  },
  {
    name: 'high-density-drain',
    title: 'Pod setup latency on a dense node drain',
    detector: 'pod-setup-latency',
    severities: ['critical', 'warning', 'info'],
    ending: 'incident',
  },
  {
    name: 'cross-minor-rollback',
    title: 'A cross-minor rollback the CVO cannot report',
    detector: 'status-write-rejection',
    severities: ['critical'],
    ending: 'rollback-guide',
  },
  {
    name: 'update-in-progress',
    title: 'An update in progress: a degraded operator, a node slow to drain',
    detector: 'update-progress',
    severities: ['critical', 'warning', 'info'],
    ending: 'rollback-guide',
  },
];
