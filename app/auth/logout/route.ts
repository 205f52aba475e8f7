import { logout } from '@/server/auth/login-flow';
import { rejectCrossSite } from '@/server/http/same-origin';

export const dynamic = 'force-dynamic';

export function POST(request: Request) {
  return rejectCrossSite(request) ?? logout(request);
}
