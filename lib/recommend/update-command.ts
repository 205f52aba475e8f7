/**
 * The `oc adm upgrade` command that requests a target, or nothing when one of our predictions blocks it; and the
 * predictions that decide it.
 */
import type { TargetPredictionDto, UpdateRecommendationsDto, UpdateTargetDto } from '@/lib/api/recommend-dto';

/** Every prediction about `target`: those holding for every target, then its own. */
export function predictionsFor(recommendations: UpdateRecommendationsDto, target: UpdateTargetDto): TargetPredictionDto[] {
  return [...(recommendations.predictions ?? []), ...(target.predictions ?? [])];
}

/**
 * `oc adm upgrade --to V` for a recommended target, with `--allow-not-recommended` when oc reports a concern
 * (the admin accepts the risks shown beside it); `null` while any of the target's predictions blocks it.
 */
export function updateCommand(target: UpdateTargetDto, predictions: readonly TargetPredictionDto[]): string | null {
  if (predictions.some((p) => p.status === 'block')) return null;
  return target.recommended ? `oc adm upgrade --to ${target.version}` : `oc adm upgrade --to ${target.version} --allow-not-recommended`;
}
