export const dynamic = 'force-dynamic';

/** Liveness: the process answers. Public, and never touches the clusters. */
export function GET() {
  return new Response('ok\n', {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
