/**
 * The `oauthaccesstokens` API of oauth.openshift.io, as far as logout needs it: GET and DELETE of one token by its
 * object name (`sha256~…`, see accessTokenName). RBAC decides; OpenShift binds `system:oauth-token-deleter` to every
 * authenticated user, so whoever knows a token's name (which takes the token) may delete it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Status } from '@/lib/k8s/types';
import { failure } from '../errors';
import { sendJson, sendStatus } from '../http-util';
import type { ObjectStore } from '../store';
import type { OAuthTokenStore } from './oauth-tokens';
import { authorize, type AccessAttributes, type UserInfo } from './rbac';

const PREFIX = '/apis/oauth.openshift.io/v1/oauthaccesstokens/';

/** What the token API needs from its API server. */
export interface OAuthTokenApiContext {
  store: ObjectStore;
  tokens: OAuthTokenStore;
  forbidden(user: UserInfo, attributes: AccessAttributes): Status;
}

/** True for `/apis/oauth.openshift.io/v1/oauthaccesstokens/<name>`. */
export function isOAuthTokenApiPath(pathname: string): boolean {
  return pathname.startsWith(PREFIX) && pathname.length > PREFIX.length && !pathname.slice(PREFIX.length).includes('/');
}

/** Answers GET or DELETE of one OAuthAccessToken for an authenticated caller. */
export function handleOAuthTokenApi(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  caller: UserInfo,
  ctx: OAuthTokenApiContext,
): void {
  const name = decodeURIComponent(pathname.slice(PREFIX.length));
  const verb = req.method === 'DELETE' ? 'delete' : req.method === 'GET' ? 'get' : undefined;
  if (!verb) {
    const message = 'the server does not allow this method on the requested resource';
    return sendStatus(res, failure(405, 'MethodNotAllowed', message, {}));
  }
  const attributes: AccessAttributes = {
    resource: { verb, group: 'oauth.openshift.io', resource: 'oauthaccesstokens', name },
  };
  if (!authorize(ctx.store, caller, attributes).allowed) return sendStatus(res, ctx.forbidden(caller, attributes));
  const found = ctx.tokens.byName(name);
  if (!found) {
    return sendStatus(
      res,
      failure(404, 'NotFound', `oauthaccesstokens.oauth.openshift.io "${name}" not found`, {
        name,
        group: 'oauth.openshift.io',
        kind: 'oauthaccesstokens',
      }),
    );
  }
  const { grant } = found;
  const object = {
    kind: 'OAuthAccessToken',
    apiVersion: 'oauth.openshift.io/v1',
    metadata: { name },
    clientName: grant.clientId,
    userName: grant.user,
    scopes: grant.scopes,
    expiresIn: Math.max(0, Math.round((grant.expiresAt - Date.now()) / 1_000)),
  };
  if (verb === 'delete') {
    ctx.tokens.revoke(found.token);
    return sendJson(res, 200, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: 'oauth.openshift.io', kind: 'oauthaccesstokens' },
    });
  }
  sendJson(res, 200, object);
}
