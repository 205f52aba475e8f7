import { noSuchApi } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** Every /api path no other route serves answers JSON 404, whatever the method. */
const notFound = timedRoute('/api/[...rest]', noSuchApi);

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
