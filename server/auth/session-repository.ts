import 'server-only';
import { createHash } from 'node:crypto';
import type { UserIdentity } from './identity';

/**
 * A browser session: who logged in, until when (the OAuth access token's expiry or the maximum session age, whichever
 * comes first), the token itself (sealed: see SessionSealer) and when TokenReview last confirmed it.
 */
export interface SessionRecord {
  user: UserIdentity;
  createdAt: string;
  expiresAt: string;
  /** The OAuth access token, encrypted; '' for a session made before tokens were kept (it ends at its review). */
  sealedToken: string;
  reviewedAt: string;
}

/**
 * Where sessions live: the incident database, so every replica serves every session. Keys are hashes of the
 * cookie value (see sessionKey): reading the table does not give anyone a usable cookie, nor a token.
 */
export interface SessionRepository {
  create(key: string, record: SessionRecord): Promise<void>;
  /** The session, or undefined when unknown or expired at `now`. */
  get(key: string, now: Date): Promise<SessionRecord | undefined>;
  /** Records a review: the user as the cluster now reports them (groups may have changed) and when. */
  reviewed(key: string, user: UserIdentity, reviewedAt: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Removes sessions expired before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
  close(): Promise<void>;
}

/** The stored key of a session cookie value. */
export function sessionKey(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('base64url');
}
