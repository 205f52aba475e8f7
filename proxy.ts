import type { NextRequest } from 'next/server';
import { requireViewer } from '@/server/auth/edge-auth';
import { edgeRequest, rejectUndecodableUrl, runEdge, type EdgeStep } from '@/server/http/edge';

/** Before any route: steps in order (the URL check, then authentication), then the security headers on every response. */
const steps: readonly EdgeStep[] = [rejectUndecodableUrl, requireViewer];

export function proxy(request: NextRequest): Promise<Response> {
  return runEdge(edgeRequest(request, process.env.NODE_ENV === 'development'), steps);
}
