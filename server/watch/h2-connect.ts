import 'server-only';
import http2, { type ClientHttp2Session } from 'node:http2';
import tls from 'node:tls';
import { KubeTransportError, toTransportError } from './kube-errors';
import { loopAwareTimeout } from './loop-timer';

/** Where to connect: the server's origin and the TLS material of the kubeconfig (CA, client certificate). */
export interface H2Target {
  url: URL;
  /** Identifies the TLS material: a session is only shared by requests with the same identity. */
  identity: string;
  tls: tls.ConnectionOptions;
  /** Time allowed for TCP connect, TLS handshake and the server's SETTINGS. */
  connectTimeoutMs: number;
}

/** Receive windows of golang.org/x/net/http2's transport (client-go): 4 MiB per stream, 1 GiB per connection. */
const STREAM_WINDOW_BYTES = 4 << 20;
const CONNECTION_WINDOW_BYTES = 1 << 30;

/**
 * One HTTP/2 session to `target`: TCP connect, TLS with ALPN and the server's first SETTINGS (its stream limit), each
 * within the connect timeout; `'http1'` when the server did not offer `h2` (its socket is closed).
 */
export async function connectH2(
  target: H2Target,
): Promise<{ session: ClientHttp2Session; socket: tls.TLSSocket } | 'http1'> {
  const { url } = target;
  const socket = tls.connect({
    ...target.tls,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 443),
    servername: target.tls.servername ?? (isIp(url.hostname) ? undefined : url.hostname),
    ALPNProtocols: ['h2', 'http/1.1'],
  });
  const protocol = await new Promise<string | false>((resolve, reject) => {
    const cancel = loopAwareTimeout(() => {
      socket.destroy();
      reject(new KubeTransportError('header-timeout', `no TLS connection within ${target.connectTimeoutMs} ms`));
    }, target.connectTimeoutMs);
    socket.once('secureConnect', () => {
      cancel();
      socket.off('error', onError);
      resolve(socket.alpnProtocol ?? false);
    });
    const onError = (error: Error) => {
      cancel();
      reject(toTransportError(error));
    };
    socket.once('error', onError);
  });
  if (protocol !== 'h2') {
    socket.destroy();
    return 'http1';
  }
  const session = http2.connect(url.origin, {
    createConnection: () => socket,
    settings: { enablePush: false, initialWindowSize: STREAM_WINDOW_BYTES },
  });
  // Go's transport windows: with HTTP/2's 64 KiB default, a busy event loop (late WINDOW_UPDATEs) would hold every
  // watch of the server behind the busiest one.
  session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
  // Until the server's SETTINGS arrive its stream limit is unknown; waiting keeps the first burst under it.
  await new Promise<void>((resolve, reject) => {
    const cancel = loopAwareTimeout(() => {
      session.destroy();
      reject(new KubeTransportError('header-timeout', `no HTTP/2 SETTINGS within ${target.connectTimeoutMs} ms`));
    }, target.connectTimeoutMs);
    session.once('remoteSettings', () => {
      cancel();
      session.off('error', onError);
      resolve();
    });
    const onError = (error: Error) => {
      cancel();
      reject(toTransportError(error));
    };
    session.once('error', onError);
  });
  return { session, socket };
}

/**
 * A connect failure that trying again at once cannot fix, so every request waiting on it shares it (as Go's dial
 * does): nothing listening, no route, an unknown host, a certificate or handshake refused.
 */
export function isDefinitiveConnectFailure(error: KubeTransportError): boolean {
  if (error.failure === 'tls' || error.failure === 'dns') return true;
  return error.failure === 'connect' && error.errno !== 'ETIMEDOUT';
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
}
