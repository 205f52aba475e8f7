import { startLogin } from '@/server/auth/login-flow';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

function handleGet(request: Request) {
  return startLogin(request);
}

export const GET = timedRoute('/auth/login', handleGet);
