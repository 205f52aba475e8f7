import { getFleet } from '@/server/engine/fleet';
import { jsonOk } from '@/server/http/responses';
import type { ClusterListDto } from '@/lib/api/dto';

export const dynamic = 'force-dynamic';

export function GET() {
  return jsonOk<ClusterListDto>({ clusters: getFleet().summaries() });
}
