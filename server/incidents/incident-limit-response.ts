import 'server-only';
import { jsonError, tooManyRequests } from '@/server/http/responses';
import { isIncidentLimitError } from './incident-limits';

/**
 * The answer to an incident refused by a limit: 429 with Retry-After (rate limit, daily quota) or 413 (one incident
 * too large); undefined for any other error, which the route rethrows.
 */
export function incidentLimitResponse(error: unknown): Response | undefined {
  if (!isIncidentLimitError(error)) return undefined;
  if (error.code === 'incident_too_large') return jsonError(413, error.code, error.message);
  return tooManyRequests(error.retryAfterSeconds ?? 1, error.message);
}
