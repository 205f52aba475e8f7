import 'server-only';
import type { ChunkReader, StreamControls, StreamResult } from './kube-stream';
import { LineSplitter } from './line-splitter';

/** A streamed body split into lines for `controls.onLine`; its result tells how the stream ended. */
export class LineReader implements ChunkReader<StreamResult> {
  private readonly splitter = new LineSplitter();
  private bytes = 0;
  private lines = 0;
  private endedBy: StreamResult['endedBy'] = 'server';
  private readonly emit = (line: string): boolean => {
    this.lines += 1;
    return this.onLine(line) !== false;
  };

  constructor(private readonly onLine: StreamControls['onLine']) {}

  chunk(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    if (this.splitter.push(chunk, this.emit)) return true;
    this.endedBy = 'client';
    return false;
  }

  /** Hands over the last line once the server ended the body, and tells how the stream ended. */
  result(): StreamResult {
    if (this.endedBy === 'server') {
      const rest = this.splitter.end();
      if (rest && !this.emit(rest)) this.endedBy = 'client';
    }
    return { endedBy: this.endedBy, bytes: this.bytes, lines: this.lines };
  }
}
