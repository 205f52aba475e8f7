import 'server-only';
import { BodyText } from './body-text';

/**
 * Cuts a body into newline-delimited lines as its chunks arrive. Lines are cut on the bytes (0x0A never occurs inside
 * a UTF-8 sequence) and a line within one chunk is decoded whole, so nothing is held between lines: an idle watch
 * keeps no decoder. Only a line still arriving keeps its first parts, as text ({@link BodyText}), never the chunk.
 */
export class LineSplitter {
  private partial: BodyText | undefined;

  /**
   * Hands each line `chunk` completes to `onLine`, trimmed (a CR of CRLF too), skipping blank ones. Returns false
   * as soon as `onLine` does; the rest of the chunk is then dropped.
   */
  push(chunk: Buffer, onLine: (line: string) => boolean): boolean {
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline >= 0) {
      let line: string;
      if (this.partial) {
        this.partial.push(chunk.subarray(0, newline));
        line = this.partial.text().trim();
        this.partial = undefined;
      } else {
        line = chunk.toString('utf8', start, newline).trim();
      }
      start = newline + 1;
      if (line.length > 0 && !onLine(line)) return false;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) (this.partial ??= new BodyText()).push(chunk.subarray(start));
    return true;
  }

  /** The last line when the body ended without a newline, trimmed ('' when there is none). */
  end(): string {
    const rest = this.partial ? this.partial.text().trim() : '';
    this.partial = undefined;
    return rest;
  }
}
