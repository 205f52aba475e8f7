import type { ScenarioContext } from '../types';
import { featureGateDetails } from '../objects/feature-gate';
import { SECOND } from '../objects/time';
import { mutateStatus } from '../objects/write';

/**
 * How the FeatureGate status is maintained:
 * - `append` (cluster-config-operator on standalone clusters): one entry per version in ClusterVersion
 *   desired + history, never dropping one;
 * - `hypershift-keep` (HyperShift today): desired + history back to the first Completed entry;
 * - `hypershift-replace` (the HyperShift bug): only the desired version, replacing everything else.
 */
export type FeatureGateWriterMode = 'append' | 'hypershift-keep' | 'hypershift-replace';

interface ClusterVersionView {
  status?: { desired?: { version?: string }; history?: { version: string; state: string }[] };
}

/** Field manager per mode. */
function managerFor(mode: FeatureGateWriterMode): string {
  return mode === 'append' ? 'cluster-config-operator' : 'control-plane-operator';
}

/**
 * The writer of featuregates.config.openshift.io/cluster status (cluster-config-operator, or HyperShift's control
 * plane operator). It resyncs on an interval and reacts to the ClusterVersion desired version.
 */
export class FeatureGateWriter {
  constructor(
    private readonly context: ScenarioContext,
    private mode: FeatureGateWriterMode,
    private readonly hosted = false,
  ) {}

  /** Starts the resync loop (and syncs once now). */
  start(intervalMs = 30 * SECOND): void {
    this.sync();
    this.context.clock.setInterval(() => this.sync(), intervalMs);
  }

  /** Switches behaviour (e.g. the control plane operator of the new release replaces instead of appending). */
  setMode(mode: FeatureGateWriterMode): void {
    this.mode = mode;
    this.sync();
  }

  /** Computes the versions to list and writes them if they differ. */
  sync(): void {
    const cv = this.context.client.get('clusterversions', 'version') as ClusterVersionView | undefined;
    const desired = cv?.status?.desired?.version;
    if (!desired) return;
    const history = cv?.status?.history ?? [];
    const mode = this.mode;
    const live = this.context.client.get('featuregates', 'cluster');
    const present = ((live?.status as { featureGates?: { version: string }[] } | undefined)?.featureGates ?? []).map((entry) => entry.version);
    let versions: string[];
    if (mode === 'hypershift-replace') {
      versions = [desired];
    } else if (mode === 'hypershift-keep') {
      versions = [desired];
      for (const entry of history) {
        if (!versions.includes(entry.version)) versions.push(entry.version);
        if (entry.state === 'Completed') break;
      }
    } else {
      versions = [desired];
      for (const entry of history) if (!versions.includes(entry.version)) versions.push(entry.version);
      for (const version of present) if (!versions.includes(version)) versions.push(version);
    }
    mutateStatus(this.context.as(managerFor(mode)), 'featuregates', 'cluster', undefined, (status: Record<string, unknown>) => ({
      ...status,
      featureGates: featureGateDetails(versions, this.hosted),
    }));
  }
}
