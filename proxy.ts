import type { NextRequest } from 'next/server';
import { edgeRequest, rejectUndecodableUrl, runEdge, type EdgeStep } from '@/server/http/edge';

/** Before any route: steps in order (an authentication step belongs after the URL check), then the security headers on every response. */
const steps: readonly EdgeStep[] = [rejectUndecodableUrl];

export function proxy(request: NextRequest): Promise<Response> {
  return runEdge(edgeRequest(request, process.env.NODE_ENV === 'development'), steps);
}
