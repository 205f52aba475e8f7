import type { NextRequest } from 'next/server';
import { requireViewer } from '@/server/auth/edge-auth';
import { edgeRequest, rejectUndecodableUrl, runEdge, type EdgeStep } from '@/server/http/edge';
import { rejectUnsupportedMethod } from '@/server/http/unsupported-methods';

/**
 * Before any route: steps in order (the method, the URL check, then authentication), then the security headers on
 * every response. (TRACE and its kin never get here: see server/http/request-hooks.ts.)
 */
const steps: readonly EdgeStep[] = [rejectUnsupportedMethod, rejectUndecodableUrl, requireViewer];

/**
 * Every path but the must-gather upload: the proxy holds a request's whole body in memory before it runs, so the
 * upload route is guarded on the server instead (server/offline/upload-guard.ts, same authentication).
 */
export const config = { matcher: ['/((?!api/must-gather$).*)'] };

export function proxy(request: NextRequest): Promise<Response> {
  return runEdge(edgeRequest(request, process.env.NODE_ENV === 'development'), steps);
}
