import type { NextRequest } from 'next/server';
import { requireViewer } from '@/server/auth/edge-auth';
import { edgeRequest, rejectUndecodableUrl, runEdge, type EdgeStep } from '@/server/http/edge';
import { rejectUnsupportedMethod } from '@/server/http/unsupported-methods';

/**
 * Before any route: steps in order (the method, the URL check, then authentication), then the security headers on
 * every response. (TRACE and its kin never get here: see refuseUnsupportedMethodsOnServer in instrumentation.ts.)
 */
const steps: readonly EdgeStep[] = [rejectUnsupportedMethod, rejectUndecodableUrl, requireViewer];

export function proxy(request: NextRequest): Promise<Response> {
  return runEdge(edgeRequest(request, process.env.NODE_ENV === 'development'), steps);
}
