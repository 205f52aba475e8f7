import 'server-only';

/** A request body over its limit (by Content-Length or as it streamed in). */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`request body larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * The request body as text, read no further than `maxBytes`: refused at once when Content-Length says more, and
 * cancelled as soon as a chunked body passes the limit, so a client cannot make the server hold an unbounded body.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
