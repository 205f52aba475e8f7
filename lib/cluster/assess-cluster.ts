/**
 * One assessment of a cluster from a snapshot: findings, update progress and identity, exactly as the API serves
 * them. The live engine, must-gather analysis and incidents all go through here, so they cannot disagree.
 */
import type { ClusterHealthDto, SourceStateDto } from '@/lib/api/dto';
import type { Detector, DetectorContext, DetectorId, Snapshot } from '@/lib/health/types';
import { DETECTORS } from '@/lib/health/registry';
import { evaluate } from '@/lib/health/evaluate';
import { computeUpdateProgress } from '@/lib/health/update-progress';
import { clusterInfo } from './cluster-info';

/** Input of {@link assessCluster}. */
export interface AssessmentInput {
  id: string;
  name: string;
  snapshot: Snapshot;
  context: DetectorContext;
  sources: SourceStateDto[];
  detectors?: readonly Detector[];
}

/** The served health plus the detectors' numeric samples at `context.now`. */
export interface Assessment {
  health: ClusterHealthDto;
  samples: Partial<Record<DetectorId, Record<string, number | null>>>;
}

/** Assesses a cluster snapshot. Pure: the same input gives the same output. */
export function assessCluster(input: AssessmentInput): Assessment {
  const { snapshot, context } = input;
  const { findings, samples } = evaluate(snapshot, context, input.detectors ?? DETECTORS);
  const clusterVersion = snapshot.objects.clusterversions?.find((object) => object.metadata.name === 'version');
  const updateProgress = clusterVersion
    ? computeUpdateProgress({
      clusterVersion,
      clusterOperators: snapshot.objects.clusteroperators ?? [],
      machineConfigPools: snapshot.objects.machineconfigpools ?? [],
      machineConfigs: snapshot.objects.machineconfigs ?? [],
      nodes: snapshot.objects.nodes ?? [],
      alerts: snapshot.alerts,
    }, context.now)
    : null;
  return {
    health: { cluster: clusterInfo(input.id, input.name, clusterVersion), findings, updateProgress, sources: input.sources },
    samples,
  };
}
