import { readiness } from '@/server/engine/readiness';
import { jsonOk } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** Readiness: 200 once every configured cluster finished its first sync or was marked unreachable/forbidden. */
function handleGet() {
  const ready = readiness();
  return jsonOk(ready, ready.ready ? 200 : 503);
}

export const GET = timedRoute('/readyz', handleGet);
