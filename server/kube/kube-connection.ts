import 'server-only';
import type { SourceStateDto } from '@/lib/api/dto';
import type { ResourceNeed } from '@/lib/health/types';
import type { KubeObject } from '@/lib/k8s/types';
import type { CredentialSource, ServerEndpoint } from '@/server/watch/kube-credentials';
import { KubeTransport, type KubeTransportOptions } from '@/server/watch/kube-transport';
import { KubeApiError } from '@/server/watch/kube-errors';
import { Reflector } from '@/server/watch/reflector';
import type { ReflectorOptions } from '@/server/watch/reflector-types';
import type { SourceState } from '@/server/watch/source-state';
import { ClusterClock } from './cluster-clock';
import type { ClusterConnection, SourceEvent, SourceHandle, TextResponse } from './connection';

/** The UI's view of a source: status and timing, without counters. */
function toDto(state: SourceState): SourceStateDto {
  const dto: SourceStateDto = { resource: state.resource, status: state.status, since: state.since };
  if (state.namespace) dto.namespace = state.namespace;
  if (state.lastSyncAt) dto.lastSyncAt = state.lastSyncAt;
  if (state.lastEventAt) dto.lastEventAt = state.lastEventAt;
  if (state.error) dto.error = state.error;
  if (state.retryAt) dto.retryAt = state.retryAt;
  return dto;
}

/**
 * A source as the engine sees it: its reflector, through methods shared by every source. An object of closures
 * instead would be eight more objects per source, each marked by every full collection, for a fleet's tens of
 * thousands of sources.
 */
class ReflectorHandle implements SourceHandle {
  constructor(private readonly reflector: Reflector) {}

  start(): void {
    this.reflector.start();
  }

  stop(): void {
    this.reflector.stop();
  }

  state(): SourceStateDto {
    return toDto(this.reflector.state());
  }

  status(): SourceStateDto['status'] {
    return this.reflector.status;
  }

  objects(): readonly KubeObject[] {
    return this.reflector.cache.list();
  }

  counters(): { events: number; relists: number } {
    return this.reflector.counters();
  }
}

/** The server's bookmark cadence and the timeouts derived from it (defaults: kube-apiserver's, see Reflector). */
export type WatchTiming = Pick<ReflectorOptions, 'bookmarkIntervalMs' | 'inactivityTimeoutMs' | 'staleAfterMs'>;

/**
 * A {@link ClusterConnection} to a real API server (or the embedded one) through one kubeconfig context: one
 * reflector per need, read-only GETs for logs and proxies, and a cluster clock learnt from response `Date` headers.
 * `credentials`, when given, replaces the context user's token or exec plugin (see exec-credential.ts).
 */
export function createKubeConnection(
  kubeconfigPath: string,
  context: string,
  timing: WatchTiming = {},
  credentials?: CredentialSource,
): ClusterConnection {
  // From the file (not a shared KubeConfig object) so a rotated token is re-read on 401.
  return connectionOver(
    (onResponseHeaders) => KubeTransport.fromFile(kubeconfigPath, { context, onResponseHeaders, credentials }),
    timing,
  );
}

/**
 * A {@link ClusterConnection} to an API server known by URL and CA, with a token from `credentials` asked per
 * request: a managed cluster behind a hub's cluster-proxy, with a rotating managed-serviceaccount token.
 */
export function createEndpointConnection(
  endpoint: ServerEndpoint,
  credentials: CredentialSource,
  timing: WatchTiming = {},
): ClusterConnection {
  return connectionOver(
    (onResponseHeaders) => KubeTransport.forEndpoint(endpoint, { onResponseHeaders, credentials }),
    timing,
  );
}

function connectionOver(
  makeTransport: (onResponseHeaders: KubeTransportOptions['onResponseHeaders']) => KubeTransport,
  timing: WatchTiming,
): ClusterConnection {
  const clock = new ClusterClock();
  const transport = makeTransport((headers) => clock.observe(headers.date));
  // Watches carry no fresh Date headers; a cheap periodic GET keeps the clock estimate honest, often while the
  // cluster clock is not running in real time (the embedded fleet), rarely otherwise.
  let probe: NodeJS.Timeout | undefined;
  let closed = false;
  const scheduleProbe = (): void => {
    if (closed) return;
    probe = setTimeout(() => {
      transport
        .getJson('/version', {}, { headerTimeoutMs: 5_000, idleTimeoutMs: 5_000 })
        .catch(() => undefined)
        .finally(scheduleProbe);
    }, clock.probeIntervalMs());
    probe.unref?.();
  };
  scheduleProbe();
  return {
    watch(need: ResourceNeed, onEvent: (event: SourceEvent) => void): SourceHandle {
      const reflector = new Reflector({
        transport,
        resource: need.resource,
        namespace: need.namespace,
        fieldSelector: need.name ? `metadata.name=${need.name}` : undefined,
        handler: onEvent,
        onStatus: () => onEvent({ type: 'status' }),
        ...timing,
      });
      return new ReflectorHandle(reflector);
    },
    async getText(path: string, options: { timeoutMs?: number } = {}): Promise<TextResponse> {
      const lines: string[] = [];
      const url = new URL(path, 'https://cluster.invalid');
      try {
        await transport.stream(url.pathname, Object.fromEntries(url.searchParams), {
          headerTimeoutMs: options.timeoutMs ?? 10_000,
          idleTimeoutMs: options.timeoutMs ?? 10_000,
          onLine: (line) => {
            lines.push(line);
          },
        });
        return { status: 200, body: lines.join('\n') };
      } catch (error) {
        if (error instanceof KubeApiError) return { status: error.code, body: error.message };
        throw error;
      }
    },
    review: <T>(path: string, body: unknown) =>
      transport.postJson<T>(path, body, { headerTimeoutMs: 10_000, idleTimeoutMs: 10_000 }),
    now: () => clock.now(),
    clockHeard: () => clock.heard(),
    close: () => {
      closed = true;
      clearTimeout(probe);
      transport.close();
    },
  };
}
