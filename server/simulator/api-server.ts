import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  authenticateToken,
  bearerToken,
  forbidden,
  simulatorTokens,
  unauthorized,
  type Identity,
  type Tokens,
} from './auth';
import { installAccessControl } from './access/access-seed';
import { processHtpasswd, type Htpasswd } from './access/htpasswd';
import { PasswordAttempts, handleOAuth, isOAuthPath, type OAuthClient } from './access/oauth-server';
import { OAuthTokenStore } from './access/oauth-tokens';
import { authorize, authorizationName, type AccessAttributes, type UserInfo } from './access/rbac';
import { handleReview, isReviewPath } from './access/reviews';
import { handleOAuthTokenApi, isOAuthTokenApiPath } from './access/oauth-token-api';
import type { ClockDriver } from './clock';
import type { SimulatedCluster } from './core';
import { coreVersions, groupList, resourceList, versionInfo } from './discovery';
import { failure } from './errors';
import { pathNotFound, sendJson, sendStatus } from './http-util';
import { buildKubeconfig } from './kubeconfig';
import { errorEventLine, expiredFor } from './list-watch';
import { RequestStats } from './request-stats';
import { handleResourceRequest } from './resource-handlers';
import { resolveRoute } from './routes';
import { RESOURCES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { handleSimControl } from './sim-control';
import { servingCertificate } from './tls';
import { listenHttps, type ApiRequestHandler } from './https-server';
import { ApiStatusError, type FaultRule } from './types';
import type { FaultVerb } from './faults';

/** Options of one simulated API server. */
export interface ServeClusterOptions {
  /** TCP port (default: any free port). */
  port?: number;
  host?: '127.0.0.1';
  /** Kubernetes minor reported by /version (default 29, as OpenShift 4.16); kubectl's dispatcher picks by it. */
  kubernetesMinor?: number;
  /** Real milliseconds between watch BOOKMARK events (default 60,000). */
  bookmarkIntervalMs?: number;
  /** The clock driver `/__sim/pause` and `/__sim/resume` act on. */
  driver?: ClockDriver;
  /** The HTPasswd identity provider of the OAuth server (default: the process's, see access/htpasswd). */
  users?: () => Htpasswd;
  /** Extra `/__sim/<action>` controls (the hub's); answers and returns true for its own actions, else false. */
  control?: (action: string, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => Promise<boolean>;
  /**
   * Offer HTTP/2 in ALPN, as kube-apiserver does (default true); `false` serves HTTP/1.1 only, as behind a proxy
   * that does not speak h2, so clients' fallback can be exercised.
   */
  http2?: boolean;
  /** Concurrent streams per HTTP/2 connection (default OpenShift's 2,000). */
  maxConcurrentStreams?: number;
  /** Answer WATCH with `sendInitialEvents=true` (WatchList, KEP-3157; default true); `false` refuses it (422). */
  watchList?: boolean;
  /**
   * Listen on a TCP port (default true). `false`: no listener of its own; requests reach it through `dispatch`
   * only, as a managed cluster behind a hub's cluster-proxy agent tunnel, and it names itself by `address`.
   */
  listen?: boolean;
  /** `host:port` a cluster that does not listen names itself by (default `api.sim.invalid:6443`). */
  address?: string;
}

/** A running simulated API server. */
export interface ServedCluster {
  url: string;
  /** base64 PEM of the serving certificate (kubeconfig `certificate-authority-data`). */
  caData: string;
  tokens: Tokens;
  /** A single-context kubeconfig for an identity; context and cluster are named `contextName` (default "sim"). */
  kubeconfig(identity: Identity, contextName?: string): string;
  stats: RequestStats;
  /** Connections accepted since the start: TCP connections, and the HTTP/2 sessions among them. */
  connections(): { tcp: number; h2Sessions: number; open: number };
  /**
   * Ends every client connection as a restarting server would: `goaway` sends each HTTP/2 session a GOAWAY and then
   * drops it; `destroy` cuts the TCP connections without a word.
   */
  dropConnections(how: 'goaway' | 'destroy'): void;
  /** The OAuth server's tokens (its issuer is `url`). */
  oauth: OAuthTokenStore;
  /**
   * Answers one request in this process as the listener would (`req.url` is the path and query): what an embedded
   * cluster-proxy's agent tunnel calls instead of opening a connection.
   */
  dispatch: ApiRequestHandler;
  close(): Promise<void>;
}

/** The dashboard's OAuth client on an embedded cluster: its reader service account, as OpenShift allows. */
export const EMBEDDED_OAUTH_CLIENT_ID = 'system:serviceaccount:openshift-update-health:reader';

function loopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
    );
  } catch {
    return false;
  }
}

function oauthClients(url: string, tokens: Tokens): Map<string, OAuthClient> {
  const clients: OAuthClient[] = [
    {
      id: 'openshift-challenging-client',
      redirectAllowed: (uri) => uri === `${url}/oauth/token/implicit`,
      registeredRedirect: `${url}/oauth/token/implicit`,
      challenge: true,
    },
    {
      id: 'openshift-browser-client',
      secret: randomBytes(24).toString('base64url'),
      redirectAllowed: (uri) => uri === `${url}/oauth/token/display`,
      registeredRedirect: `${url}/oauth/token/display`,
    },
    // A service account is an OAuth client whose secret is one of its tokens and whose scopes stop at user:info/check-access.
    {
      id: EMBEDDED_OAUTH_CLIENT_ID,
      secret: tokens.reader,
      redirectAllowed: loopbackRedirect,
      allowedScopes: ['user:info', 'user:check-access'],
    },
  ];
  return new Map(clients.map((client) => [client.id, client]));
}

function verbOf(method: string, name: string | undefined, query: URLSearchParams): string {
  const watch = query.get('watch');
  switch (method) {
    case 'GET':
      if (!name) return watch === 'true' || watch === '1' ? 'watch' : 'list';
      return 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

function faultVerb(verb: string): FaultVerb {
  return verb === 'get' || verb === 'list' || verb === 'watch' ? verb : 'other';
}

/** Answers a request with a fault before it reaches the API; returns true when the request is fully handled. */
function applyFault(
  rule: FaultRule,
  verb: string,
  req: IncomingMessage,
  res: ServerResponse,
  cluster: SimulatedCluster,
  query: URLSearchParams,
): boolean {
  const socket = req.socket as Socket;
  switch (rule.kind) {
    case 'reset': {
      // A TLS socket cannot send a TCP RST itself; reset the TCP connection underneath it.
      const tcp = (socket as Socket & { _parent?: Socket })._parent ?? socket;
      try {
        tcp.resetAndDestroy();
      } catch {
        socket.destroy();
      }
      return true;
    }
    case 'drop':
      if (verb === 'watch') return false;
      socket.destroy();
      return true;
    case 'hang':
      return true;
    case 'silence':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      return true;
    case 'close':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
      return true;
    case 'status': {
      const code = rule.status ?? 500;
      const headers: Record<string, string> = {};
      let status;
      if (code === 429) {
        const retry = rule.retryAfterSeconds ?? 1;
        headers['Retry-After'] = String(retry);
        status = failure(429, 'TooManyRequests', 'Too many requests, please try again later.', {
          retryAfterSeconds: retry,
        });
      } else if (code === 401) status = unauthorized();
      else if (code === 403) status = failure(403, 'Forbidden', 'forbidden: injected fault', {});
      else if (code === 503)
        status = failure(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', {});
      else if (code === 504)
        status = failure(504, 'Timeout', 'the server was unable to return a response in the time allotted', {});
      else
        status = failure(code, 'InternalError', 'Internal error occurred: injected fault', {
          causes: [{ reason: '', message: 'injected fault', field: '' }],
        });
      if (rule.retryAfterSeconds !== undefined && code !== 429) headers['Retry-After'] = String(rule.retryAfterSeconds);
      sendStatus(res, status, headers);
      return true;
    }
    case 'expire': {
      const error = expiredFor(cluster.store, query);
      if (verb === 'watch') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(errorEventLine(error));
      } else {
        sendStatus(res, error.status);
      }
      return true;
    }
    case 'slow':
      return false;
  }
}

/**
 * A cluster with no listener: its requests come in through `dispatch`, whose open responses it keeps so that
 * dropping connections or closing ends them as a listener's would.
 */
function inProcess(address: string, handler: ApiRequestHandler) {
  const open = new Set<ServerResponse>();
  const end = () => {
    for (const res of open) res.destroy();
  };
  return {
    url: `https://${address}`,
    address,
    dispatch: ((req, res) => {
      open.add(res);
      res.on('close', () => open.delete(res));
      handler(req, res);
    }) satisfies ApiRequestHandler,
    connections: () => ({ tcp: 0, h2Sessions: 0, open: 0 }),
    dropConnections: end,
    close: async () => end(),
  };
}

/**
 * Serves a simulated cluster over HTTPS as OpenShift would: bearer-token authentication (service accounts and OAuth
 * access tokens), RBAC authorization, the OAuth server and review APIs, discovery, the resource API, logs, proxy,
 * and the cluster-admin-only `/__sim` control surface.
 */
export async function serveCluster(
  cluster: SimulatedCluster,
  options: ServeClusterOptions = {},
): Promise<ServedCluster> {
  const certificate = servingCertificate();
  const tokens = simulatorTokens();
  const stats = new RequestStats();
  const host = options.host ?? '127.0.0.1';
  const watchOptions = {
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    watchList: options.watchList ?? true,
  };
  const minor = options.kubernetesMinor ?? 29;
  let address = '';
  const oauth = new OAuthTokenStore();
  const attempts = new PasswordAttempts();
  const users = options.users ?? processHtpasswd;
  let clients = new Map<string, OAuthClient>();
  installAccessControl(cluster.as('openshift-apiserver'));
  const authenticate = (token: string) => authenticateToken(tokens, oauth, token, cluster.serviceAccountTokens);
  const reviewContext = {
    store: cluster.store,
    authenticate,
    forbidden: (user: UserInfo, attrs: AccessAttributes) => forbidden(user, attrs),
  };

  const servedNow = (resource: ResourceName) => cluster.api.served(resource);
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const route = resolveRoute(url.pathname);
    const query = url.searchParams;
    if (route.type === 'version') return sendJson(res, 200, versionInfo(minor));
    if (isOAuthPath(url.pathname)) {
      const client = (id: string) => clients.get(id);
      return handleOAuth(req, res, url, { issuer: `https://${address}`, tokens: oauth, users, client, attempts });
    }
    const token = bearerToken(req.headers.authorization);
    const user = token ? authenticate(token) : undefined;
    if (!user) return sendStatus(res, unauthorized());
    if (isReviewPath(url.pathname)) return handleReview(req, res, url.pathname, user, reviewContext);
    if (isOAuthTokenApiPath(url.pathname)) {
      return handleOAuthTokenApi(req, res, url.pathname, user, { ...reviewContext, tokens: oauth });
    }
    switch (route.type) {
      case 'sim': {
        const attrs: AccessAttributes = {
          nonResource: { verb: (req.method ?? 'GET').toLowerCase(), path: url.pathname },
        };
        if (!authorize(cluster.store, user, attrs).allowed) return sendStatus(res, forbidden(user, attrs));
        if (options.control && (await options.control(route.action, req, res, query))) return;
        return handleSimControl(route.action, req, res, { cluster, stats, driver: options.driver, query });
      }
      case 'core-versions':
        return sendJson(res, 200, coreVersions(address));
      case 'groups':
        return sendJson(res, 200, groupList(servedNow));
      case 'group': {
        const groups = (groupList(servedNow) as { groups: { name: string }[] }).groups;
        const group = groups.find((candidate) => candidate.name === route.group);
        return group
          ? sendJson(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...group })
          : sendStatus(res, pathNotFound());
      }
      case 'resources': {
        const list = resourceList(route.group, route.version, (resource) => cluster.api.hasStatus(resource), servedNow);
        return list ? sendJson(res, 200, list) : sendStatus(res, pathNotFound());
      }
      case 'not-found':
        return sendStatus(res, pathNotFound());
      case 'resource':
        if (!servedNow(route.resource)) return sendStatus(res, pathNotFound());
        break;
    }
    const verb = verbOf(req.method ?? 'GET', route.name, query);
    const info: ResourceInfo = RESOURCES[route.resource];
    const name = authorizationName(verb, route.proxyTarget ?? route.name, query.get('fieldSelector'));
    const attributes: AccessAttributes = {
      resource: {
        verb,
        group: info.group,
        resource: route.resource,
        subresource: route.subresource,
        name,
        namespace: route.namespace,
      },
    };
    if (!authorize(cluster.store, user, attributes).allowed) return sendStatus(res, forbidden(user, attributes));
    stats.count(route.subresource ? `${route.resource}/${route.subresource}` : route.resource, verb);
    const rule = cluster.faults.take(route.resource, faultVerb(verb));
    let afterReplay: ((end: () => void) => void) | undefined;
    if (rule) {
      if (rule.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, rule.delayMs ?? 1_000));
      if (applyFault(rule, verb, req, res, cluster, query)) return;
      if (rule.kind === 'drop') afterReplay = () => setImmediate(() => req.socket.destroy());
    }
    return handleResourceRequest({
      req,
      res,
      cluster,
      resource: route.resource,
      verb,
      namespace: route.namespace,
      name: route.name,
      subresource: route.subresource,
      port: route.port,
      proxyPath: route.proxyPath,
      query,
      watch: watchOptions,
      afterReplay,
    });
  };

  const dispatch: ApiRequestHandler = (req, res) => {
    // Like a real API server, answer with the cluster's own clock: clients learn "now" from Date.
    res.sendDate = false;
    res.setHeader('Date', new Date(cluster.clock.now()).toUTCString());
    const url = new URL(req.url ?? '/', 'https://sim.local');
    const done = stats.begin(req.method ?? 'GET', url.pathname, url.search.replace(/^\?/, ''));
    res.on('close', done);
    handle(req, res, url).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof ApiStatusError) return sendStatus(res, error.status);
      const message = error instanceof Error ? error.message : String(error);
      sendStatus(res, failure(500, 'InternalError', `Internal error occurred: ${message}`, {}));
    });
  };
  const served =
    options.listen === false
      ? inProcess(options.address ?? 'api.sim.invalid:6443', dispatch)
      : await listenHttps(certificate, dispatch, {
          port: options.port,
          host,
          http2: options.http2,
          maxConcurrentStreams: options.maxConcurrentStreams,
        });
  address = served.address;
  const url = served.url;
  clients = oauthClients(url, tokens);
  return {
    url,
    caData: certificate.caData,
    tokens,
    stats,
    oauth,
    kubeconfig: (identity, contextName = 'sim') =>
      buildKubeconfig([{ name: contextName, server: url, caData: certificate.caData, token: tokens[identity] }]),
    connections: () => served.connections(),
    dropConnections: (how) => served.dropConnections(how),
    dispatch: 'dispatch' in served ? served.dispatch : dispatch,
    close: () => served.close(),
  };
}
