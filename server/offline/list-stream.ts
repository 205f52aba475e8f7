import 'server-only';
import { StringDecoder } from 'node:string_decoder';
import { OfflineInputError } from './errors';
import { formatBytes, type OfflineLimits } from './limits';

/** Where a {@link YamlListSplitter} hands its pieces. */
export interface ListSink {
  /** One item of the list, dedented to a standalone YAML document. */
  item(text: string): void;
  /** The whole entry, when it is not a list the splitter can cut (JSON, several documents, unusual layout). */
  whole(text: string): void;
  /** Everything but the items (`apiVersion`, `kind`, `metadata`), once the entry ended (a list only). */
  envelope(text: string): void;
}

type Mode = 'head' | 'items' | 'tail' | 'whole';

/**
 * Cuts a YAML List as `oc get -o yaml` and must-gather write it (`items:` at column 0, each item a `- ` at column 0
 * with its lines indented two spaces) into its items while it streams, so memory holds one item rather than a file
 * of thousands of pods. Anything else is kept whole and handed over at the end, as before. The entry-size and
 * line-length caps are enforced on the bytes as they arrive either way.
 */
export class YamlListSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private mode: Mode = 'head';
  private carry = '';
  private bytes = 0;
  private lineBytes = 0;
  private readonly envelopeLines: string[] = [];
  private item: string[] | undefined;
  /** `- ` at column 0 (oc, kubectl) or indented (`  - `, as js-yaml writes); learnt from the first item. */
  private indent: string | undefined;
  private wholeParts: string[] = [];

  constructor(
    private readonly label: string,
    private readonly limits: OfflineLimits,
    private readonly sink: ListSink,
  ) {}

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxEntryBytes) {
      throw new OfflineInputError(
        `${this.label}: entry larger than ${formatBytes(this.limits.maxEntryBytes)}`,
        'limit',
      );
    }
    this.checkLines(chunk);
    this.feed(this.decoder.write(chunk));
  }

  finish(): void {
    this.feed(this.decoder.end());
    if (this.mode !== 'whole' && this.carry) {
      const rest = this.carry;
      this.carry = '';
      this.line(rest);
    }
    if (this.mode === 'whole') {
      this.sink.whole(this.wholeParts.join('') + this.carry);
      this.wholeParts = [];
      this.carry = '';
      return;
    }
    this.flushItem();
    if (this.mode === 'head') {
      // No `items:` block: an ordinary single document.
      this.sink.whole(this.envelopeLines.join('\n'));
      return;
    }
    this.sink.envelope(this.envelopeLines.join('\n'));
  }

  private feed(text: string): void {
    if (this.mode === 'whole') {
      this.wholeParts.push(text);
      return;
    }
    if (!text.includes('\n')) {
      // Still inside one line: splitting would flatten the whole carry again for every chunk of a long line.
      this.carry += text;
      return;
    }
    const lines = (this.carry + text).split('\n');
    this.carry = lines.pop()!;
    for (let i = 0; i < lines.length; i++) {
      this.line(lines[i]);
      if (this.isWhole()) {
        // Not a list after all: keep the rest of this chunk verbatim (the carry follows with the next text).
        for (const rest of lines.slice(i + 1)) this.wholeParts.push(`${rest}\n`);
        this.wholeParts.push(this.carry);
        this.carry = '';
        return;
      }
    }
  }

  private isWhole(): boolean {
    return this.mode === 'whole';
  }

  private checkLines(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.lineBytes += (newline === -1 ? chunk.length : newline) - start;
      if (this.lineBytes > this.limits.maxLineBytes) {
        throw new OfflineInputError(
          `${this.label}: line longer than ${formatBytes(this.limits.maxLineBytes)}`,
          'limit',
        );
      }
      if (newline === -1) return;
      this.lineBytes = 0;
      start = newline + 1;
    }
  }

  private line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    switch (this.mode) {
      case 'head': {
        const first = this.envelopeLines.every((kept) => kept.trim() === '' || kept.startsWith('#'));
        if (first && /^\s*[{[]/.test(line)) return this.toWhole(raw);
        if (line === '---' || line.startsWith('--- ') || line === '...') {
          // A leading document marker is harmless; any later one means several documents.
          if (first && line.startsWith('---')) return;
          return this.toWhole(raw);
        }
        if (line === 'items:') {
          this.mode = 'items';
          return;
        }
        this.envelopeLines.push(line);
        return;
      }
      case 'items': {
        if (this.indent === undefined) {
          if (line.trim() === '' || line.trimStart().startsWith('#')) return;
          const match = /^( *)-( |$)/.exec(line);
          // Not a block sequence we can cut (a flow sequence, a value on the same line...): read it whole.
          if (!match) return this.toWhole(raw, 'items:');
          this.indent = match[1];
        }
        const dash = `${this.indent}-`;
        if (line === dash || line.startsWith(`${dash} `)) {
          this.flushItem();
          this.item = [line.slice(dash.length + 1)];
        } else if (line.startsWith(`${this.indent}  `) || line.trim() === '') {
          this.item?.push(line.slice(this.indent.length + 2));
        } else if (line.trimStart().startsWith('#')) {
          // a comment between items
        } else {
          this.flushItem();
          this.mode = 'tail';
          this.envelopeLines.push(line);
        }
        return;
      }
      case 'tail':
        if (line === '---' || line.startsWith('--- ') || line === 'items:') {
          // A second document (or items twice): not the simple shape; what was read so far stays read.
          throw new OfflineInputError(`${this.label}: invalid YAML: more than one document after a list`, 'syntax');
        }
        this.envelopeLines.push(line);
        return;
      case 'whole':
        return;
    }
  }

  private toWhole(current: string, ...before: string[]): void {
    this.mode = 'whole';
    this.wholeParts = [
      ...this.envelopeLines.map((line) => `${line}\n`),
      ...before.map((line) => `${line}\n`),
      `${current}\n`,
    ];
    this.envelopeLines.length = 0;
  }

  private flushItem(): void {
    if (!this.item) return;
    const text = this.item.join('\n');
    this.item = undefined;
    this.sink.item(text);
  }
}
