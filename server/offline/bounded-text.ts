import 'server-only';
import { open } from 'node:fs/promises';
import { OfflineInputError } from './errors';
import { formatBytes, type OfflineLimits } from './limits';

const NEWLINE = 0x0a;

/**
 * Collects one resource entry chunk by chunk, enforcing the entry-size and line-length caps as bytes arrive so a
 * hostile entry (one 500 MB line, an endless stream) trips a limit before it is held in memory.
 */
export class BoundedText {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private line = 0;

  constructor(
    private readonly label: string,
    private readonly limits: OfflineLimits,
  ) {}

  /** Adds a chunk; throws {@link OfflineInputError} when a cap is exceeded. */
  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxEntryBytes) {
      throw new OfflineInputError(
        `${this.label}: entry larger than ${formatBytes(this.limits.maxEntryBytes)}`,
        'limit',
      );
    }
    const first = chunk.indexOf(NEWLINE);
    if (first === -1) this.line += chunk.length;
    else {
      this.line += first;
      this.checkLine();
      this.line = chunk.length - chunk.lastIndexOf(NEWLINE) - 1;
    }
    this.checkLine();
    this.chunks.push(chunk);
  }

  /** Bytes collected so far. */
  get size(): number {
    return this.bytes;
  }

  /** The whole entry as UTF-8 text. */
  text(): string {
    return Buffer.concat(this.chunks, this.bytes).toString('utf8');
  }

  private checkLine(): void {
    if (this.line > this.limits.maxLineBytes) {
      throw new OfflineInputError(`${this.label}: line longer than ${formatBytes(this.limits.maxLineBytes)}`, 'limit');
    }
  }
}

/**
 * The last `maxLines` lines of a log, fed chunk by chunk. Memory stays bounded whatever the input: over-long lines
 * are cut (the rest of the line is skipped, never buffered) and the kept tail never exceeds `maxLogTailBytes`.
 */
export class LogTail {
  private lines: string[] = [];
  private keptBytes = 0;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private cut = false;

  constructor(
    private readonly maxLines: number,
    private readonly limits: OfflineLimits,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const stop = end === -1 ? chunk.length : end;
      this.append(chunk.subarray(start, stop));
      if (end === -1) break;
      this.endLine();
      start = end + 1;
    }
  }

  /** The kept lines, oldest first; a final line without a newline is included. */
  finish(): string[] {
    if (this.partialBytes > 0 || this.cut) this.endLine();
    return this.lines.slice(-this.maxLines);
  }

  private append(part: Buffer): void {
    const room = this.limits.maxLogLineBytes - this.partialBytes;
    if (part.length > room) this.cut = true;
    const kept = part.length > room ? part.subarray(0, Math.max(0, room)) : part;
    if (kept.length > 0) {
      this.partial.push(Buffer.from(kept));
      this.partialBytes += kept.length;
    }
  }

  private endLine(): void {
    let line = Buffer.concat(this.partial, this.partialBytes).toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (this.cut) line += ' …[line cut]';
    this.partial = [];
    this.partialBytes = 0;
    this.cut = false;
    if (line.length === 0) return;
    this.lines.push(line);
    this.keptBytes += line.length;
    if (this.lines.length > this.maxLines * 2 || this.keptBytes > this.limits.maxLogTailBytes) this.trim();
  }

  private trim(): void {
    this.lines = this.lines.slice(-this.maxLines);
    this.keptBytes = this.lines.reduce((sum, line) => sum + line.length, 0);
    while (this.keptBytes > this.limits.maxLogTailBytes && this.lines.length > 0)
      this.keptBytes -= this.lines.shift()!.length;
  }
}

/**
 * The last `maxLines` lines of a file, reading backwards from its end in blocks: a multi-GB log costs only its
 * tail. Reads at most `maxLogTailBytes` plus one block.
 */
export async function readFileTail(path: string, maxLines: number, limits: OfflineLimits): Promise<string[]> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const block = 64 * 1024;
    const blocks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    while (position > 0 && newlines <= maxLines && size - position < limits.maxLogTailBytes + block) {
      const length = Math.min(block, position);
      position -= length;
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, position);
      for (const byte of buffer) if (byte === NEWLINE) newlines++;
      blocks.unshift(buffer);
    }
    let data = Buffer.concat(blocks);
    if (position > 0) data = data.subarray(data.indexOf(NEWLINE) + 1);
    const tail = new LogTail(maxLines, limits);
    tail.push(data);
    return tail.finish();
  } finally {
    await handle.close();
  }
}
