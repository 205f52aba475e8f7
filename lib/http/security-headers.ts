/** How a response is served, as far as its security headers care. */
export interface SecurityContext {
  /** Per-request random nonce for the page's scripts. */
  nonce: string;
  /** Served over TLS (directly or behind an edge-terminating route): adds HSTS. */
  tls: boolean;
  /** `next dev` needs eval for React's debugging; production never does. */
  dev?: boolean;
}

/**
 * The Content-Security-Policy of every response. Scripts run only with the request's nonce (and what those scripts
 * load, `'strict-dynamic'`), never inline or injected markup; nothing may embed the dashboard, change its base URL or
 * load plugins. Styles allow inline attributes because server-rendered charts carry `style="..."`; they cannot run code.
 */
export function contentSecurityPolicy({ nonce, dev }: SecurityContext): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Every security header of a response (CSP included), as name → value. */
export function securityHeaders(context: SecurityContext): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(context),
    'X-Content-Type-Options': 'nosniff',
    // incident links are capabilities: never leak them to another site in a Referer
    'Referrer-Policy': 'no-referrer',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  if (context.tls) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}
