/**
 * The OAuth server's state: access tokens (`sha256~…`, as OpenShift 4.6+ issues them), single-use authorization
 * codes and login sessions of the login form. Real time, not the cluster's virtual clock: a login is a person's.
 */
import { createHash, randomBytes } from 'node:crypto';

/** One issued access token. */
export interface TokenGrant {
  user: string;
  scopes: string[];
  clientId: string;
  expiresAt: number;
}

interface CodeGrant extends TokenGrant {
  redirectUri: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

/** Lifetime of an access token (OpenShift's default accessTokenMaxAgeSeconds). */
export const TOKEN_LIFETIME_SECONDS = 86_400;
const CODE_LIFETIME_MS = 5 * 60_000;
const LOGIN_SESSION_MS = 5 * 60_000;

function secret(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens, codes and login sessions of one OAuth server. */
export class OAuthTokenStore {
  private readonly tokens = new Map<string, TokenGrant>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly logins = new Map<string, { user: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Issues an access token. */
  issueToken(grant: Omit<TokenGrant, 'expiresAt'>): { token: string; expiresIn: number } {
    const token = `sha256~${secret()}`;
    this.tokens.set(token, { ...grant, expiresAt: this.now() + TOKEN_LIFETIME_SECONDS * 1_000 });
    return { token, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  /** The grant behind a token, or undefined when unknown or expired. */
  lookup(token: string): TokenGrant | undefined {
    const grant = this.tokens.get(token);
    if (!grant) return undefined;
    if (grant.expiresAt <= this.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return grant;
  }

  /** Deletes a token (logout: `oc delete oauthaccesstoken`). */
  revoke(token: string): void {
    this.tokens.delete(token);
  }

  /** The token whose OAuthAccessToken object is named `name` (see {@link accessTokenName}), if still valid. */
  byName(name: string): { token: string; grant: TokenGrant } | undefined {
    for (const token of this.tokens.keys()) {
      if (accessTokenName(token) !== name) continue;
      const grant = this.lookup(token);
      return grant ? { token, grant } : undefined;
    }
    return undefined;
  }

  /**
   * Removes a user (`oc delete user`): OpenShift then rejects every token of theirs (the token names a user that no
   * longer exists); here the tokens go with the user.
   */
  deleteUser(user: string): number {
    let removed = 0;
    for (const [token, grant] of this.tokens) {
      if (grant.user === user && this.tokens.delete(token)) removed += 1;
    }
    return removed;
  }

  /** Issues an authorization code, valid once for five minutes. */
  issueCode(grant: Omit<CodeGrant, 'expiresAt'>): string {
    const code = secret();
    this.codes.set(code, { ...grant, expiresAt: this.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** Takes a code (it is deleted whether or not it is still valid). */
  takeCode(code: string): CodeGrant | undefined {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    return grant && grant.expiresAt > this.now() ? grant : undefined;
  }

  /** Starts a login session after a successful password check; returns the cookie value. */
  startLogin(user: string): string {
    const id = secret();
    this.logins.set(id, { user, expiresAt: this.now() + LOGIN_SESSION_MS });
    return id;
  }

  /** The user of a login session cookie, if still valid. */
  loginUser(id: string | undefined): string | undefined {
    const login = id ? this.logins.get(id) : undefined;
    return login && login.expiresAt > this.now() ? login.user : undefined;
  }
}

/**
 * The name of a token's OAuthAccessToken object (OpenShift 4.6+): `sha256~` + base64url(sha256(the token without its
 * `sha256~` prefix)). Holding the token is what it takes to know the name.
 */
export function accessTokenName(token: string): string {
  return `sha256~${createHash('sha256')
    .update(token.replace(/^sha256~/, ''))
    .digest('base64url')}`;
}

/** RFC 7636 S256: base64url(sha256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
