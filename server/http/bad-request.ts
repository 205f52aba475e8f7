import 'server-only';
import type { UrlProblem } from '@/lib/http/url-check';
import { escapeHtml, simplePage } from './simple-page';

/** `/api/*`: the API's JSON error body. */
export function badRequestJson(problem: UrlProblem): Response {
  return Response.json(
    { error: { code: 'bad_request', message: problem.message } },
    { status: 400, headers: { 'Cache-Control': 'no-store' } },
  );
}

/** Pages: the product's own error page (the URL never reached a route). */
export function badRequestPage(problem: UrlProblem, nonce: string): Response {
  return simplePage({
    title: 'Bad request',
    nonce,
    status: 400,
    body: `<p>${escapeHtml(problem.message)}. The address cannot name a cluster, finding or incident.</p>\n<p><a href="/">Back to the fleet</a></p>`,
  });
}
