import 'server-only';
import { KubeApiError, KubeCredentialsError, KubeTransportError } from './kube-errors';
import type { SourceError, SourceStatus } from './source-state';

/** How long to wait after a failure. */
export type RetryDelay =
  | { kind: 'backoff' } // next step of the exponential backoff
  | { kind: 'slow' } // near the backoff cap: retrying sooner cannot help
  | { kind: 'retry-after'; ms: number } // what the server asked for (429)
  | { kind: 'auth' }; // first 401 retries on the backoff (credentials may have been refreshed), later ones slowly

/** What the reflector does about one failed LIST or WATCH. */
export interface FailureAction {
  status: SourceStatus;
  error: SourceError;
  delay: RetryDelay;
  /** Start over with a LIST from resourceVersion "" (the RV expired). */
  relist: boolean;
  /** Re-read the kubeconfig before retrying (a rotated token). */
  reloadCredentials: boolean;
}

const UNREACHABLE = new Set(['connect', 'dns', 'tls', 'header-timeout']);

/**
 * client-go's decisions, as data: 410 relists, 429 honours Retry-After without relisting, 401/403 retry slowly
 * and say so, connection-level failures show as unreachable, everything else backs off and resumes from the
 * same resourceVersion. `hasSynced` decides between `stale` (we had data) and `pending` (we never had any).
 */
export function classifyFailure(error: unknown, hasSynced: boolean): FailureAction {
  const lost: SourceStatus = hasSynced ? 'stale' : 'pending';
  const base = { relist: false, reloadCredentials: false };
  if (error instanceof KubeApiError) {
    const detail: SourceError = { code: error.code, reason: error.reason || undefined, message: error.message };
    if (error.isExpired) return { ...base, status: lost, error: detail, delay: { kind: 'backoff' }, relist: true };
    if (error.code === 429) {
      const delay: RetryDelay =
        error.retryAfterSeconds !== undefined
          ? { kind: 'retry-after', ms: error.retryAfterSeconds * 1000 }
          : { kind: 'backoff' };
      return { ...base, status: lost, error: detail, delay };
    }
    if (error.code === 401)
      return { ...base, status: 'unauthorized', error: detail, delay: { kind: 'auth' }, reloadCredentials: true };
    if (error.code === 403) return { ...base, status: 'forbidden', error: detail, delay: { kind: 'slow' } };
    return { ...base, status: lost, error: detail, delay: { kind: 'backoff' } };
  }
  if (error instanceof KubeCredentialsError) {
    return {
      ...base,
      status: 'unauthorized',
      error: { reason: 'CredentialsUnavailable', message: error.message },
      delay: { kind: 'auth' },
      reloadCredentials: true,
    };
  }
  if (error instanceof KubeTransportError) {
    const detail: SourceError = { reason: error.errno ?? error.failure, message: error.message };
    const status: SourceStatus = UNREACHABLE.has(error.failure) ? 'unreachable' : lost;
    return { ...base, status, error: detail, delay: { kind: 'backoff' } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ...base, status: lost, error: { reason: 'InternalError', message }, delay: { kind: 'backoff' } };
}
