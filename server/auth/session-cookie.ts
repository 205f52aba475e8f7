import 'server-only';

/** The session cookie: `__Host-` prefixed (Secure, Path=/, no Domain) when served over TLS. */
export function sessionCookieName(tls: boolean): string {
  return tls ? '__Host-uh_session' : 'uh_session';
}

/** The short-lived cookie holding a login in progress (state, PKCE verifier, where to go after). */
export function loginCookieName(tls: boolean): string {
  return tls ? '__Host-uh_login' : 'uh_login';
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Path=/, Secure under TLS; `maxAgeSeconds` 0 deletes it. */
export function setCookie(name: string, value: string, maxAgeSeconds: number, tls: boolean): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${tls ? '; Secure' : ''}`;
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
