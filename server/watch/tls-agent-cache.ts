import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { createHash } from 'node:crypto';
import tls, { createSecureContext } from 'node:tls';

/** TLS material copied from the options client-node fills in; anything else it sets is ignored. */
const TLS_KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

function fingerprint(protocol: string, options: https.RequestOptions): string {
  const hash = createHash('sha256').update(protocol);
  for (const key of TLS_KEYS) {
    const value = (options as Record<string, unknown>)[key];
    hash.update(`|${key}=`);
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) hash.update(Buffer.isBuffer(item) ? item : String(item));
  }
  return hash.digest('hex');
}

/** The same TLS material: the same values, or buffers of equal bytes (client-node decodes the CA afresh each time). */
function sameMaterial(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (Buffer.isBuffer(x) && Buffer.isBuffer(y) && x.equals(y)) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || !sameMaterial(x, y)) return false;
  }
  return true;
}

/**
 * TLS contexts by fingerprint, shared across transports: the clusters behind one hub's cluster-proxy all trust the same
 * CA, and a context per cluster (each with its own certificate store) would cost thousands of copies of one thing.
 * Held weakly so a rotated certificate's context goes with its last user.
 */
const contexts = new Map<string, WeakRef<tls.SecureContext>>();

function sharedSecureContext(key: string, options: tls.SecureContextOptions): tls.SecureContext {
  const existing = contexts.get(key)?.deref();
  if (existing) return existing;
  if (contexts.size >= 64) for (const [k, ref] of contexts) if (!ref.deref()) contexts.delete(k);
  const context = createSecureContext(options);
  contexts.set(key, new WeakRef(context));
  return context;
}

/**
 * One keep-alive agent per TLS identity. client-node builds a fresh agent on every `applyToHTTPSOptions` call,
 * which would mean a new TLS handshake per list page; reusing ours keeps the connection pool, and a rotated
 * certificate (different fingerprint) gets a new agent while the old pool's idle sockets are closed.
 */
export class TlsAgentCache {
  private key = '';
  private agent: http.Agent | undefined;
  private tls: tls.ConnectionOptions = {};
  /** The protocol and TLS material `key` was computed from. */
  private protocol = '';
  private material: readonly unknown[] = [];

  /** The agent for this protocol and TLS material, creating it when the material changed. */
  agentFor(protocol: string, options: https.RequestOptions): http.Agent {
    this.refresh(protocol, options);
    return this.agent as http.Agent;
  }

  /**
   * The TLS options (with the shared context) for connections made outside the agent, such as HTTP/2 sessions,
   * and the fingerprint of that material: connections may only be shared by requests with the same identity.
   */
  connectionOptions(protocol: string, options: https.RequestOptions): { identity: string; tls: tls.ConnectionOptions } {
    this.refresh(protocol, options);
    return { identity: this.key, tls: this.tls };
  }

  /** Closes idle pooled sockets; sockets in use close when their request ends. */
  close(): void {
    this.retire();
    this.key = '';
    this.material = [];
  }

  private refresh(protocol: string, options: https.RequestOptions): void {
    // Every request brings its credentials afresh, nearly always the same objects (or equal bytes) as the last one's:
    // comparing them is cheap, where hashing a CA bundle for each of a fleet's reconnecting watches took seconds.
    const material = TLS_KEYS.map((k) => (options as Record<string, unknown>)[k]);
    if (this.agent && protocol === this.protocol && sameMaterial(material, this.material)) return;
    const key = fingerprint(protocol, options);
    this.protocol = protocol;
    this.material = material;
    if (this.agent && key === this.key) return;
    this.retire();
    this.key = key;
    if (protocol === 'http:') {
      this.agent = new http.Agent({ keepAlive: true });
      this.tls = {};
    } else {
      const tlsOptions: https.AgentOptions = { keepAlive: true };
      for (const k of TLS_KEYS) {
        const value = (options as Record<string, unknown>)[k];
        if (value !== undefined) (tlsOptions as Record<string, unknown>)[k] = value;
      }
      // One TLS context for every connection with this material: without it each connection (a watch per resource)
      // builds its own, with its own certificate store, which at fleet scale costs more memory than the caches.
      tlsOptions.secureContext = sharedSecureContext(key, tlsOptions);
      this.agent = new https.Agent(tlsOptions);
      this.tls = { ...tlsOptions };
      delete (this.tls as https.AgentOptions).keepAlive;
    }
  }

  private retire(): void {
    const old = this.agent;
    this.agent = undefined;
    if (!old) return;
    for (const sockets of Object.values(old.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    // keep-alive off so in-use sockets are closed instead of pooled once their response ends
    (old as unknown as { keepAlive: boolean }).keepAlive = false;
  }
}
