/**
 * The `oc adm upgrade` command that requests a target, or nothing when one of our predictions blocks it.
 */
import type { UpdateTargetDto } from '@/lib/api/recommend-dto';

/**
 * `oc adm upgrade --to V` for a recommended target, with `--allow-not-recommended` when oc reports a concern
 * (the admin accepts the risks shown beside it); `null` while any of our predictions blocks the target.
 */
export function updateCommand(target: UpdateTargetDto): string | null {
  if (target.predictions?.some((p) => p.status === 'block')) return null;
  return target.recommended ? `oc adm upgrade --to ${target.version}` : `oc adm upgrade --to ${target.version} --allow-not-recommended`;
}
