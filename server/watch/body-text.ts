import 'server-only';
import { StringDecoder } from 'node:string_decoder';

/**
 * A body's text, decoded chunk by chunk as it arrives: no chunk is kept, only its characters (a multi-byte character
 * cut between two chunks waits in the decoder). Over HTTP/2 a chunk is a view of the connection's whole read buffer,
 * which carries the frames of every stream on it; keeping the chunk until the body ends kept that buffer, and V8
 * counts such buffers as external memory, whose growth starts a full collection: at 3,500 clusters syncing through
 * one proxy, one every few seconds, with a second of marking on the event loop each.
 */
export class BodyText {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];
  /** Bytes pushed so far. */
  bytes = 0;

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    const text = this.decoder.write(chunk);
    if (text.length > 0) this.parts.push(text);
  }

  /** The whole text; a character left cut at the end becomes U+FFFD, as `Buffer#toString` decodes it. */
  text(): string {
    return this.parts.join('') + this.decoder.end();
  }
}
