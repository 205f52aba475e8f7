import 'server-only';
import { READ_EVERYTHING, checkKey, type AccessAnswers, type AccessCheck } from '@/lib/access/access-check';
import { ExpiringLru } from './expiring-lru';
import type { UserIdentity } from './identity';

const SAR_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

interface SarAnswer {
  status?: { allowed?: boolean };
}

/** The subject of a SubjectAccessReview as kube-rbac-proxy sends it: name, uid, groups and extra (token scopes). */
function subjectOf(user: UserIdentity): Record<string, unknown> {
  return {
    user: user.name,
    groups: user.groups,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.extra ? { extra: user.extra } : {}),
  };
}

function subjectKey(user: UserIdentity): string {
  const extra = Object.entries(user.extra ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([user.name, user.uid ?? '', [...user.groups].sort(), extra]);
}

/**
 * Asks a cluster, by SubjectAccessReview with the user's name, uid, groups and extra (so a scoped token is held
 * to its scopes), what the user may read, caching each
 * answer for a short time (30 s: access granted or revoked shows within that) and sharing in-flight questions.
 * Fails closed: a review that errors counts as denied and is retried on the next request.
 */
export class AccessReviewer {
  private readonly cache: ExpiringLru<boolean>;
  private readonly inflight = new Map<string, Promise<boolean>>();

  constructor(
    private readonly post: (clusterId: string, path: string, body: unknown) => Promise<unknown>,
    now: () => number = Date.now,
    private readonly ttlMs = 30_000,
    maxEntries = 50_000,
  ) {
    this.cache = new ExpiringLru(maxEntries, now);
  }

  private ask(clusterId: string, user: UserIdentity, spec: Record<string, unknown>, key: string): Promise<boolean> {
    const cacheKey = `${clusterId}\n${subjectKey(user)}\n${key}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return Promise.resolve(cached.value);
    const pending = this.inflight.get(cacheKey);
    if (pending) return pending;
    const body = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { ...subjectOf(user), ...spec },
    };
    const question = this.post(clusterId, SAR_PATH, body)
      .then(
        (answer) => {
          const allowed = (answer as SarAnswer).status?.allowed === true;
          this.cache.set(cacheKey, allowed, this.ttlMs);
          return allowed;
        },
        () => false,
      )
      .finally(() => this.inflight.delete(cacheKey));
    this.inflight.set(cacheKey, question);
    return question;
  }

  /** One resource check. */
  allowed(clusterId: string, user: UserIdentity, check: AccessCheck): Promise<boolean> {
    const resourceAttributes = Object.fromEntries(Object.entries(check).filter(([, value]) => value !== undefined));
    return this.ask(clusterId, user, { resourceAttributes }, checkKey(check));
  }

  /** A non-resource URL check (`get /metrics`). */
  allowedPath(clusterId: string, user: UserIdentity, verb: string, path: string): Promise<boolean> {
    return this.ask(clusterId, user, { nonResourceAttributes: { verb, path } }, `path|${verb}|${path}`);
  }

  /**
   * Answers for all `checks` on one cluster. A user who may read everything (cluster-reader and above) is answered
   * with two reviews; anyone else with one review per distinct check.
   */
  async answers(clusterId: string, user: UserIdentity, checks: readonly AccessCheck[]): Promise<AccessAnswers> {
    const everything = await Promise.all(READ_EVERYTHING.map((check) => this.allowed(clusterId, user, check)));
    if (everything.every(Boolean)) return () => true;
    const results = new Map<string, boolean>();
    await Promise.all(
      checks.map(async (check) => results.set(checkKey(check), await this.allowed(clusterId, user, check))),
    );
    return (check) => results.get(checkKey(check)) === true;
  }
}
