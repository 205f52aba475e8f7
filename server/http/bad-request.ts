import 'server-only';
import type { UrlProblem } from '@/lib/http/url-check';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `/api/*`: the API's JSON error body. */
export function badRequestJson(problem: UrlProblem): Response {
  return Response.json({ error: { code: 'bad_request', message: problem.message } }, { status: 400, headers: { 'Cache-Control': 'no-store' } });
}

/**
 * Pages: the product's own error page, rendered without React (the URL never reached a route), styled like the
 * dashboard's header and card, with the request's nonce on its only style element.
 */
export function badRequestPage(problem: UrlProblem, nonce: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request · Update Health</title><link rel="icon" href="/icon.svg" type="image/svg+xml">
<style nonce="${nonce}">
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1d21;--muted:#5b616e;--border:#d6d9df;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--bg:#121417;--fg:#e6e8eb;--muted:#a3a9b4;--border:#30343b;--accent:#6cb4ff}}
body{margin:0;font:15px/1.5 Inter,system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{padding:10px 24px;border-bottom:1px solid var(--border);font-weight:600}
main{max-width:720px;margin:48px auto;padding:0 24px}p{color:var(--muted)}a{color:var(--accent)}
</style></head><body><header><a href="/">Update Health</a></header>
<main><h1>Bad request</h1><p>${escape(problem.message)}. The address cannot name a cluster, finding or incident.</p>
<p><a href="/">Back to the fleet</a></p></main></body></html>`;
  return new Response(html, { status: 400, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}
