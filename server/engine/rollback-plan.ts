import 'server-only';
import type { ClusterHealthDto } from '@/lib/api/dto';
import type { RollbackPlanDto } from '@/lib/api/rollback-dto';
import { planRollback } from '@/lib/rollback/plan-rollback';
import { jsonError } from '@/server/http/responses';
import type { FleetMember } from './fleet';

/** A member's rollback plan to `target` on the health the viewer sees, or 400 when `target` is no release version. */
export function rollbackPlanFor(
  member: Pick<FleetMember, 'snapshot' | 'now'>,
  health: ClusterHealthDto,
  options: { target: string; acceptCrossMinorRisk: boolean },
): RollbackPlanDto | Response {
  const plan = planRollback(member.snapshot(), health, { ...options, now: member.now() });
  return plan ?? jsonError(400, 'bad_request', `to: "${options.target}" is not a release version (x.y.z)`);
}
