import { getAuthService } from '@/server/auth/auth-service';
import { viewerOf } from '@/server/auth/viewer';
import { jsonOk } from '@/server/http/responses';
import type { AuthInfoDto } from '@/lib/api/auth-dto';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** How to log in, and who is logged in (public: the page and API clients read it before they have credentials). */
async function handleGet(request: Request) {
  const auth = getAuthService();
  const viewer = viewerOf(request);
  return jsonOk<AuthInfoDto>({
    mode: auth.mode,
    issuer: (await auth.issuer()) ?? null,
    ...(viewer?.kind === 'user' ? { user: { name: viewer.user.name, groups: viewer.user.groups } } : {}),
  });
}

export const GET = timedRoute('/api/auth', handleGet);
