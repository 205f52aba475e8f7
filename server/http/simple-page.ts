import 'server-only';

/** Escapes text for HTML. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page rendered without React (errors before any route, the login's own pages), styled like the dashboard's
 * header and card, with the request's nonce on its only style element. `body` is trusted HTML: escape what goes in.
 */
export function simplePage(options: {
  title: string;
  body: string;
  nonce: string;
  status?: number;
  headers?: HeadersInit;
}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Update Health</title><link rel="icon" href="/icon.svg" type="image/svg+xml">
<style nonce="${options.nonce}">
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1d21;--muted:#5b616e;--border:#d6d9df;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--bg:#121417;--fg:#e6e8eb;--muted:#a3a9b4;--border:#30343b;--accent:#6cb4ff}}
body{margin:0;font:15px/1.5 Inter,system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{padding:10px 24px;border-bottom:1px solid var(--border);font-weight:600}
main{max-width:720px;margin:48px auto;padding:0 24px}p{color:var(--muted)}a{color:var(--accent)}
</style></head><body><header><a href="/">Update Health</a></header>
<main><h1>${escapeHtml(options.title)}</h1>${options.body}</main></body></html>`;
  const headers = new Headers(options.headers);
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return new Response(html, { status: options.status ?? 200, headers });
}
