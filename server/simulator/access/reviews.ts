/**
 * The review APIs a delegating service uses: TokenReview (who is this bearer?), SubjectAccessReview (may this user
 * do that?), SelfSubjectAccessReview (may I?), and OpenShift's `users/~` (who am I?).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Status } from '@/lib/k8s/types';
import { failure } from '../errors';
import { readBody, sendJson, sendStatus } from '../http-util';
import type { ObjectStore } from '../store';
import { authorize, type AccessAttributes, type UserInfo } from './rbac';

/** Review paths, keyed by what they are. */
export const REVIEW_PATHS = {
  tokenreviews: '/apis/authentication.k8s.io/v1/tokenreviews',
  subjectaccessreviews: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
  selfsubjectaccessreviews: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
  me: '/apis/user.openshift.io/v1/users/~',
} as const;

/** What review handlers need from their API server. */
export interface ReviewContext {
  store: ObjectStore;
  /** Resolves a bearer token to a user (with groups and scopes), or undefined. */
  authenticate(token: string): UserInfo | undefined;
  forbidden(user: UserInfo, attributes: AccessAttributes, message: string): Status;
}

/** True when the path is one of the review APIs. */
export function isReviewPath(pathname: string): boolean {
  return (Object.values(REVIEW_PATHS) as string[]).includes(pathname);
}

/** Groups as TokenReview reports them: the user's Groups plus the virtual authenticated groups. */
export function reportedGroups(store: ObjectStore, user: UserInfo): string[] {
  const groups = new Set(user.groups);
  for (const entry of store.list('groups')) {
    if (((entry.object as { users?: string[] }).users ?? []).includes(user.name))
      groups.add(entry.object.metadata.name);
  }
  return [...groups];
}

interface ReviewSpec {
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  token?: string;
  resourceAttributes?: {
    verb?: string;
    group?: string;
    resource?: string;
    subresource?: string;
    name?: string;
    namespace?: string;
  };
  nonResourceAttributes?: { verb?: string; path?: string };
}

function attributesOf(spec: ReviewSpec): AccessAttributes | undefined {
  if (spec.resourceAttributes?.verb && spec.resourceAttributes.resource !== undefined) {
    const r = spec.resourceAttributes;
    return {
      resource: {
        verb: r.verb!,
        group: r.group ?? '',
        resource: r.resource!,
        subresource: r.subresource || undefined,
        name: r.name || undefined,
        namespace: r.namespace || undefined,
      },
    };
  }
  if (spec.nonResourceAttributes?.verb && spec.nonResourceAttributes.path) {
    return { nonResource: { verb: spec.nonResourceAttributes.verb, path: spec.nonResourceAttributes.path } };
  }
  return undefined;
}

function invalid(kind: string, message: string): Status {
  return failure(422, 'Invalid', `${kind}.authorization.k8s.io "" is invalid: ${message}`, { kind });
}

/** Answers a review path for an authenticated caller. */
export async function handleReview(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  caller: UserInfo,
  ctx: ReviewContext,
): Promise<void> {
  if (pathname === REVIEW_PATHS.me) {
    if (req.method !== 'GET')
      return sendStatus(
        res,
        failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
      );
    const attrs: AccessAttributes = {
      resource: { verb: 'get', group: 'user.openshift.io', resource: 'users', name: '~' },
    };
    if (!authorize(ctx.store, caller, attrs).allowed)
      return sendStatus(res, ctx.forbidden(caller, attrs, 'users.user.openshift.io "~" is forbidden'));
    const groups = reportedGroups(ctx.store, caller).filter((group) => !group.startsWith('system:'));
    return sendJson(res, 200, {
      kind: 'User',
      apiVersion: 'user.openshift.io/v1',
      metadata: { name: caller.name },
      identities: caller.name.startsWith('system:') ? [] : [`htpasswd:${caller.name}`],
      groups,
    });
  }
  if (req.method !== 'POST')
    return sendStatus(
      res,
      failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
    );
  let body: { apiVersion?: string; kind?: string; spec?: ReviewSpec };
  try {
    body = JSON.parse(await readBody(req)) as typeof body;
  } catch {
    return sendStatus(res, failure(400, 'BadRequest', 'the request body is not valid JSON', {}));
  }
  const spec = body?.spec ?? {};
  const kind = pathname.split('/').pop()!;
  const group = kind === 'tokenreviews' ? 'authentication.k8s.io' : 'authorization.k8s.io';
  const createAttrs: AccessAttributes = { resource: { verb: 'create', group, resource: kind } };
  if (!authorize(ctx.store, caller, createAttrs).allowed)
    return sendStatus(res, ctx.forbidden(caller, createAttrs, `${kind}.${group} is forbidden`));
  const apiVersion = `${group}/v1`;
  const reviewKind = {
    tokenreviews: 'TokenReview',
    subjectaccessreviews: 'SubjectAccessReview',
    selfsubjectaccessreviews: 'SelfSubjectAccessReview',
  }[kind]!;

  if (kind === 'tokenreviews') {
    if (!spec.token)
      return sendStatus(
        res,
        failure(422, 'Invalid', 'TokenReview.authentication.k8s.io "" is invalid: spec.token: Required value', {
          kind: 'TokenReview',
        }),
      );
    const user = ctx.authenticate(spec.token);
    const status = user
      ? {
          authenticated: true,
          user: {
            username: user.name,
            uid: '',
            groups: reportedGroups(ctx.store, user),
            extra: user.scopes ? { 'scopes.authorization.openshift.io': user.scopes } : {},
          },
          audiences: ['https://kubernetes.default.svc'],
        }
      : { authenticated: false, user: {}, error: '[invalid bearer token, token lookup failed]' };
    return sendJson(res, 201, {
      apiVersion,
      kind: reviewKind,
      metadata: { creationTimestamp: null },
      spec: { token: spec.token },
      status,
    });
  }
  const attributes = attributesOf(spec);
  if (!attributes)
    return sendStatus(
      res,
      invalid(
        reviewKind,
        'spec: Invalid value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  let subject: UserInfo;
  if (kind === 'selfsubjectaccessreviews') subject = caller;
  else {
    if (!spec.user && !spec.groups?.length)
      return sendStatus(
        res,
        invalid(reviewKind, 'spec.user: Invalid value: "": at least one of user or group must be specified'),
      );
    const scopes = spec.extra?.['scopes.authorization.openshift.io'];
    subject = { name: spec.user ?? '', groups: spec.groups ?? [], scopes };
  }
  const decision = authorize(ctx.store, subject, attributes);
  const status = decision.allowed
    ? { allowed: true, reason: decision.reason }
    : { allowed: false, ...(decision.reason ? { reason: decision.reason } : {}) };
  return sendJson(res, 201, { apiVersion, kind: reviewKind, metadata: { creationTimestamp: null }, spec, status });
}
