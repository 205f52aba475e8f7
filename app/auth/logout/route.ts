import { logout } from '@/server/auth/login-flow';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

function handlePost(request: Request) {
  return rejectCrossSite(request) ?? logout(request);
}

export const POST = timedRoute('/auth/logout', handlePost);
