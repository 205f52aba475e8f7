import { readiness } from '@/server/observability/readiness';
import { jsonOk } from '@/server/http/responses';

export const dynamic = 'force-dynamic';

/** Readiness: 200 once every configured cluster finished its first sync or was marked unreachable/forbidden. */
export function GET() {
  const ready = readiness();
  return jsonOk(ready, ready.ready ? 200 : 503);
}
