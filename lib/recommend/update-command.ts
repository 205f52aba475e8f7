/**
 * The `oc adm upgrade` command that requests a target — only when requesting it is safe — and the predictions that
 * decide it.
 */
import type { UpdateStateDto } from '@/lib/api/dto';
import type { TargetPredictionDto, UpdateRecommendationsDto, UpdateTargetDto } from '@/lib/api/recommend-dto';

/** oc's name of the risk it injects into minor updates while the CVO reports `Upgradeable=False`. */
export const UPGRADEABLE_FALSE_RISK = 'UpgradeableFalse';

/** Every prediction about `target`: those holding for every target, then its own. */
export function predictionsFor(
  recommendations: UpdateRecommendationsDto,
  target: UpdateTargetDto,
): TargetPredictionDto[] {
  return [...(recommendations.predictions ?? []), ...(target.predictions ?? [])];
}

/** What the admin must accept by name before `--allow-not-recommended` is offered; `null` for a recommended target. */
export function riskToAcknowledge(target: UpdateTargetDto): string | null {
  if (target.recommended) return null;
  const names = target.risks.map((risk) => risk.name);
  if (names.length) return names.join(', ');
  return `Recommended=${target.recommendedStatus}${target.reason ? ` (${target.reason})` : ''}`;
}

/** Why no command is offered for `target` (empty when one may be). */
export function commandWithheld(
  target: UpdateTargetDto,
  predictions: readonly TargetPredictionDto[],
  state: Pick<UpdateStateDto, 'phase' | 'label'> | null,
): string[] {
  const reasons: string[] = [];
  if (state && state.phase !== 'idle') {
    reasons.push(state.phase === 'unknown' ? state.label : `An update is in progress: ${state.label}`);
  }
  if (target.risks.some((risk) => risk.name === UPGRADEABLE_FALSE_RISK)) {
    reasons.push(
      'The cluster-version operator reports Upgradeable=False, which blocks minor updates ' +
        '(z-stream updates stay allowed)',
    );
  }
  // The server's own update-in-progress prediction says what the state already said.
  for (const p of predictions) if (p.status === 'block' && !reasons.includes(p.title)) reasons.push(p.title);
  return reasons;
}

/**
 * `oc adm upgrade --to V`, or `null`: while an update is in progress or its state is unknown, while Upgradeable=False
 * blocks the target, while any prediction blocks it, and — for a target oc does not recommend — until the admin has
 * acknowledged its risks by name (then with `--allow-not-recommended`). `--force` is never offered.
 */
export function updateCommand(
  target: UpdateTargetDto,
  predictions: readonly TargetPredictionDto[],
  options: { state?: Pick<UpdateStateDto, 'phase' | 'label'> | null; acknowledged?: boolean } = {},
): string | null {
  if (commandWithheld(target, predictions, options.state ?? null).length > 0) return null;
  if (target.recommended) return `oc adm upgrade --to ${target.version}`;
  return options.acknowledged ? `oc adm upgrade --to ${target.version} --allow-not-recommended` : null;
}

/** The target to preselect: the newest recommended one, else none (a not-recommended target is never preselected). */
export function defaultTarget(updates: readonly UpdateTargetDto[]): UpdateTargetDto | undefined {
  return updates.find((target) => target.recommended);
}
