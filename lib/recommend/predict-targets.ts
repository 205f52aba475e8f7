/**
 * Our own predictions per update target, from what the detectors and rollback checks know and `oc adm upgrade
 * recommend` does not: an update already under way, catalog PodDisruptionBudgets that will refuse the update's node
 * drains, the FeatureGate versions components look up, and whether the target release's ClusterVersion CRD
 * accepts the capabilities enabled now.
 */
import type { TargetPredictionDto, UpdateRecommendationsDto, UpdateTargetDto } from '@/lib/api/recommend-dto';
import type { UpdateStateDto } from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import {
  asArray,
  asNumber,
  asObject,
  asString,
  dig,
  findObject,
  objectsOf,
  stringsAt,
} from '@/lib/health/shared/objects';
import { pdbFinding } from '@/lib/health/shared/catalog-checks';
import { predictRejection } from '@/lib/health/shared/capability-rejection';
import { pdbsFor } from '@/lib/health/shared/workload-math';
import { CATALOG_DEPLOYMENTS } from '@/lib/rollback/check-catalog';

function prediction(
  check: string,
  status: TargetPredictionDto['status'],
  title: string,
  detail: string,
): TargetPredictionDto {
  return { check, status, title, detail };
}

/**
 * An update under way (the update state's phase is not `idle`: a pool rollout counts too, and a state that cannot be
 * told is not idle), or Progressing=True: the CVO takes a new target only after it has moved off the current one.
 */
function updateInFlight(recommendations: UpdateRecommendationsDto, state?: UpdateStateDto): TargetPredictionDto {
  const progressing = recommendations.clusterConditions.find((c) => c.type === 'Progressing');
  if (state && state.phase !== 'idle') {
    const title = state.phase === 'unknown' ? state.label : `An update is in progress: ${state.label}`;
    return prediction(
      'update-in-progress',
      'block',
      title,
      state.phase === 'unknown'
        ? 'Without the update state nobody can tell whether requesting a target now would retarget an unfinished update.'
        : // A frozen status's Progressing message is as stale as the rest of it.
          `${!state.frozen && progressing?.status === 'True' && progressing.message ? `${progressing.message}. ` : ''}` +
            'Requesting another target now retargets an unfinished update; let it complete first.',
    );
  }
  if (progressing?.status === 'True') {
    return prediction(
      'update-in-progress',
      'block',
      'An update is in progress',
      `${progressing.message || 'The cluster is updating'}. Requesting another target now retargets an unfinished update; let it complete first.`,
    );
  }
  return prediction(
    'update-in-progress',
    'pass',
    'No update in progress',
    'The cluster-version operator is not progressing towards another release.',
  );
}

/** Every update reboots each node after a drain; a catalog PDB at its limit refuses the eviction forever. */
function catalogDrains(snapshot: Snapshot): TargetPredictionDto {
  const deployments = objectsOf(snapshot, 'deployments').filter((d) =>
    (CATALOG_DEPLOYMENTS as readonly string[]).includes(d.metadata.name),
  );
  const pdbs = objectsOf(snapshot, 'poddisruptionbudgets');
  const blocked = deployments.flatMap((deployment) => {
    const ready = asNumber(dig(deployment, 'status', 'readyReplicas')) ?? 0;
    return pdbsFor(deployment, pdbs).flatMap((pdb) => pdbFinding(deployment, pdb, ready) ?? []);
  });
  if (blocked.length > 0) {
    return prediction(
      'catalog-drain',
      'block',
      blocked.map((f) => f.title).join('; '),
      `The machine-config rollout of this update drains every node; ${blocked.map((f) => f.summary).join(' ')}`,
    );
  }
  if (deployments.length === 0)
    return prediction(
      'catalog-drain',
      'pass',
      'No OLMv1 catalog Deployments',
      'Nothing of catalogd or operator-controller to drain around.',
    );
  return prediction(
    'catalog-drain',
    'pass',
    'Catalog PodDisruptionBudgets allow drains',
    'Each catalog PodDisruptionBudget allows at least one disruption.',
  );
}

/** Components of the current release keep running during the update and look their version up in FeatureGate status. */
function featureGateVersions(snapshot: Snapshot, current: string | null): TargetPredictionDto | undefined {
  const fg = findObject(snapshot, 'featuregates', 'cluster');
  if (!fg || !current) return undefined;
  const versions = asArray(dig(fg, 'status', 'featureGates'))
    .map((g) => asString(asObject(g)?.version))
    .filter((v): v is string => !!v);
  if (versions.length === 0)
    return prediction(
      'featuregate',
      'pass',
      'FeatureGate status records no versions',
      'Releases before 4.14 do not look their version up there.',
    );
  if (versions.includes(current)) {
    return prediction(
      'featuregate',
      'pass',
      `FeatureGate status keeps ${current}`,
      `Components still at ${current} during the rollout find their feature set (recorded: ${versions.join(', ')}).`,
    );
  }
  return prediction(
    'featuregate',
    'block',
    `FeatureGate status lacks ${current}`,
    `featuregates.config.openshift.io/cluster records ${versions.join(', ')} but not the running ${current}: every component at ${current} that restarts during the update exits with \`missing desired version "${current}"\` and crash-loops.`,
  );
}

/** Capability predictions already made, by enabled capabilities and target version (a fleet has few of each). */
const capabilityPredictions = new Map<string, TargetPredictionDto>();
/** Past this many entries the cache starts over: a bound, not an expected size. */
const CAPABILITY_PREDICTIONS_MAX = 20_000;

/** The target release re-applies its ClusterVersion CRD; an enum without an enabled capability freezes status. */
function capabilities(enabled: readonly string[], target: UpdateTargetDto): TargetPredictionDto {
  const key = `${target.version}\u0000${enabled.join(',')}`;
  let predicted = capabilityPredictions.get(key);
  if (!predicted) {
    if (capabilityPredictions.size >= CAPABILITY_PREDICTIONS_MAX) capabilityPredictions.clear();
    capabilityPredictions.set(key, (predicted = Object.freeze(capabilitiesPrediction(enabled, target))));
  }
  return predicted;
}

function capabilitiesPrediction(enabled: readonly string[], target: UpdateTargetDto): TargetPredictionDto {
  const result = predictRejection(enabled, target.version);
  if (!result.targetRelease) {
    return prediction(
      'capabilities',
      'unknown',
      `No capability data for ${target.version}`,
      'The release table (built from the real ClusterVersion CRDs) has no entry for it, so we cannot say whether its CRD accepts the enabled capabilities.',
    );
  }
  if (result.rejected.length > 0) {
    return prediction(
      'capabilities',
      'block',
      `The ${target.version} ClusterVersion CRD rejects ${result.rejected.join(', ')}`,
      `Enabled now and never removable, but missing from the target's enum: after its CRD is applied every CVO status write fails (${result.message ?? ''}).`,
    );
  }
  return prediction(
    'capabilities',
    'pass',
    `The ${target.version} CRD accepts every enabled capability`,
    `All ${enabled.length} enabled capabilities are in the target release's ClusterVersion CRD enum${result.newerThanKnown ? ' (newest known release standing in)' : ''}.`,
  );
}

/**
 * The recommendations with our predictions: those holding for every target once, the target's own on each.
 * `state` is the cluster's update state (`lib/cluster/update-state`), when known.
 */
export function withPredictions(
  recommendations: UpdateRecommendationsDto,
  snapshot: Snapshot,
  state?: UpdateStateDto,
): UpdateRecommendationsDto {
  const shared = [
    updateInFlight(recommendations, state),
    catalogDrains(snapshot),
    featureGateVersions(snapshot, recommendations.currentVersion),
  ].filter((p): p is TargetPredictionDto => p !== undefined);
  const cv = findObject(snapshot, 'clusterversions', 'version');
  const enabled = stringsAt(cv, 'status', 'capabilities', 'enabledCapabilities');
  return {
    ...recommendations,
    predictions: shared,
    updates: recommendations.updates.map((target) => ({ ...target, predictions: [capabilities(enabled, target)] })),
  };
}
