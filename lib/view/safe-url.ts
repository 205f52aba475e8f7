/**
 * Returns `url` when it is an absolute http(s) URL, else null. Links built from served data go through this so a
 * `javascript:` or `data:` URL can never become an href.
 */
export function safeHttpUrl(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
