import 'server-only';
import type { NextResponse } from 'next/server';
import type { ApiErrorDto } from '@/lib/api/dto';
import { jsonError } from './responses';

/**
 * Why a state-changing request is cross-site, or null when it may proceed. Browsers send `Sec-Fetch-Site` and
 * `Origin` on every cross-origin POST, so a request is rejected when `Sec-Fetch-Site` is anything but `same-origin`
 * or `none` (typed by the user), or when `Origin` (including `null`) is not this server's own origin. Requests with
 * neither header come from non-browser clients (curl, scripts), which cannot carry a victim's cookies.
 */
export function crossSiteReason(request: Request): string | null {
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${site}`;
  const origin = request.headers.get('origin');
  if (origin === null) return null;
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin ${origin} is not a URL`;
  }
  if (!host || originHost !== host) return `Origin ${origin} is not this server`;
  return null;
}

/** A 403 JSON response for a cross-site state-changing request, or null when it is same-origin. */
export function rejectCrossSite(request: Request): NextResponse<ApiErrorDto> | null {
  const reason = crossSiteReason(request);
  return reason ? jsonError(403, 'cross_site_request', `cross-site request refused: ${reason}`) : null;
}
