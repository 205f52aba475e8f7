import { loggedOutPage } from '@/server/auth/login-flow';

export const dynamic = 'force-dynamic';

export function GET(request: Request) {
  return loggedOutPage(request);
}
