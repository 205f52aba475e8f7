import 'server-only';
import { createHash } from 'node:crypto';
import type { UserIdentity } from './identity';

/** A browser session: who logged in and until when (the OAuth access token's expiry). */
export interface SessionRecord {
  user: UserIdentity;
  createdAt: string;
  expiresAt: string;
}

/**
 * Where sessions live: the incident database, so every replica serves every session. Keys are hashes of the
 * cookie value (see sessionKey): reading the table does not give anyone a usable cookie.
 */
export interface SessionRepository {
  create(key: string, record: SessionRecord): Promise<void>;
  /** The session, or undefined when unknown or expired at `now`. */
  get(key: string, now: Date): Promise<SessionRecord | undefined>;
  delete(key: string): Promise<void>;
  /** Removes sessions expired before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
  close(): Promise<void>;
}

/** The stored key of a session cookie value. */
export function sessionKey(cookieValue: string): string {
  return createHash('sha256').update(cookieValue).digest('base64url');
}
