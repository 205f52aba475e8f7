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

/** The release versions a writer renders for: the desired one and the history (newest first). */
export interface VersionView {
  desired?: string;
  history: { version: string; state: string }[];
}

/**
 * Where a writer reads versions from and writes the rendered list to. The default target is this cluster's
 * ClusterVersion and featuregates.config.openshift.io/cluster status.
 */
export interface FeatureGateTarget {
  versions(): VersionView | undefined;
  /** Versions listed now. */
  present(): string[];
  write(manager: string, featureGates: Record<string, unknown>[]): void;
}

interface ClusterVersionView {
  status?: { desired?: { version?: string }; history?: { version: string; state: string }[] };
}

function clusterTarget(context: ScenarioContext): FeatureGateTarget {
  return {
    versions() {
      const cv = context.client.read('clusterversions', 'version') as ClusterVersionView | undefined;
      const desired = cv?.status?.desired?.version;
      return desired ? { desired, history: cv?.status?.history ?? [] } : undefined;
    },
    present() {
      const live = context.client.read('featuregates', 'cluster');
      return ((live?.status as { featureGates?: { version: string }[] } | undefined)?.featureGates ?? []).map(
        (entry) => entry.version,
      );
    },
    write(manager, featureGates) {
      mutateStatus(context.as(manager), 'featuregates', 'cluster', undefined, (status: Record<string, unknown>) => ({
        ...status,
        featureGates,
      }));
    },
  };
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
  private readonly target: FeatureGateTarget;

  constructor(
    context: ScenarioContext,
    private mode: FeatureGateWriterMode,
    private readonly hosted = false,
    target?: FeatureGateTarget,
  ) {
    this.target = target ?? clusterTarget(context);
    this.clock = context.clock;
  }

  private readonly clock: ScenarioContext['clock'];

  /** Starts the resync loop (and syncs once now). */
  start(intervalMs = 30 * SECOND): void {
    this.sync();
    this.clock.setInterval(() => this.sync(), intervalMs);
  }

  /** Switches behaviour (e.g. the control plane operator of the new release replaces instead of appending). */
  setMode(mode: FeatureGateWriterMode): void {
    this.mode = mode;
    this.sync();
  }

  /** Computes the versions to list and writes them if they differ. */
  sync(): void {
    const view = this.target.versions();
    const desired = view?.desired;
    if (!view || !desired) return;
    const history = view.history;
    const mode = this.mode;
    const present = this.target.present();
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
    if (JSON.stringify(present) === JSON.stringify(versions)) return;
    this.target.write(managerFor(mode), featureGateDetails(versions, this.hosted));
  }
}
