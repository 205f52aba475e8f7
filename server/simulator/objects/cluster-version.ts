import type { Condition, KubeObject } from '@/lib/k8s/types';
import { iso } from './time';
import { capabilitiesFor, errataUrl, releaseImage } from './releases';
import { channelsOfRelease, type EvaluatedGraph } from './update-graph';

/** One ClusterVersion status.history entry, newest first in the list. */
export interface HistoryEntry {
  state: 'Completed' | 'Partial';
  version: string;
  image: string;
  verified: boolean;
  startedTime: string;
  completionTime: string | null;
  acceptedRisks?: string;
}

/** A history entry for `version` started and (optionally) completed at the given virtual times. */
export function historyEntry(version: string, startedMs: number, completedMs?: number, verified = true): HistoryEntry {
  return {
    state: completedMs === undefined ? 'Partial' : 'Completed',
    version,
    image: releaseImage(version),
    verified,
    startedTime: iso(startedMs),
    completionTime: completedMs === undefined ? null : iso(completedMs),
  };
}

/** The release object the CVO writes to status.desired. */
export function releaseDescriptor(version: string): {
  version: string;
  image: string;
  url: string;
  channels: string[];
} {
  return { version, image: releaseImage(version), url: errataUrl(version), channels: channelsOfRelease(version) };
}

/** Spec of the `version` ClusterVersion. */
export interface ClusterVersionSpecInput {
  clusterID: string;
  channel: string;
  desiredVersion?: string;
}

/** The spec a cluster at rest has (desiredUpdate set from the last `oc adm upgrade`). */
export function clusterVersionSpec(input: ClusterVersionSpecInput): Record<string, unknown> {
  const spec: Record<string, unknown> = { channel: input.channel, clusterID: input.clusterID };
  if (input.desiredVersion) {
    spec.desiredUpdate = { force: false, image: releaseImage(input.desiredVersion), version: input.desiredVersion };
  }
  return spec;
}

/** The ClusterVersion `version` without status (status is written by the CVO through /status). */
export function buildClusterVersion(input: ClusterVersionSpecInput): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: clusterVersionSpec(input),
  };
}

/** Inputs of a CVO status write. */
export interface ClusterVersionStatusInput {
  desiredVersion: string;
  history: HistoryEntry[];
  conditions: Condition[];
  observedGeneration: number;
  capabilitiesVersion: string;
  versionHash: string;
  /** Available and conditional updates evaluated from the update service's last answer (none: not retrieved). */
  graph?: EvaluatedGraph;
}

/**
 * status of the `version` ClusterVersion as the cluster-version operator writes it, with the available and
 * conditional updates it evaluated from the update service's answer (availableUpdates null until retrieved).
 */
export function clusterVersionStatus(input: ClusterVersionStatusInput): Record<string, unknown> {
  const capabilities = capabilitiesFor(input.capabilitiesVersion);
  const graph = input.graph;
  return {
    availableUpdates: graph?.availableUpdates ?? null,
    ...(graph ? { conditionalUpdates: graph.conditionalUpdates } : {}),
    capabilities: { enabledCapabilities: capabilities, knownCapabilities: capabilities },
    conditions: input.conditions,
    desired: releaseDescriptor(input.desiredVersion),
    history: input.history,
    observedGeneration: input.observedGeneration,
    versionHash: input.versionHash,
  };
}
