import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

function split(chunks: Buffer[], stopAfter = Infinity): { lines: string[]; stopped: boolean; rest: string } {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  for (const chunk of chunks) {
    const more = splitter.push(chunk, (line) => {
      lines.push(line);
      return lines.length < stopAfter;
    });
    if (!more) return { lines, stopped: true, rest: '' };
  }
  return { lines, stopped: false, rest: splitter.end() };
}

/** `text`'s bytes cut at every given byte offset. */
function cut(text: string, ...at: number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const bounds = [0, ...at, bytes.length];
  return bounds.slice(1).map((end, i) => bytes.subarray(bounds[i], end));
}

describe('LineSplitter', () => {
  it('hands over every line of a chunk, trimmed, without blank ones', () => {
    expect(split(cut('{"a":1}\n\n  {"b":2}\r\n{"c":3}\n'))).toEqual({
      lines: ['{"a":1}', '{"b":2}', '{"c":3}'],
      stopped: false,
      rest: '',
    });
  });

  it('joins a line cut across chunks, also inside a multi-byte character', () => {
    const text = '{"name":"Zürich-東京"}\n{"x":"é"}\n';
    const bytes = Buffer.byteLength(text);
    // every cut position, including the middle of "ü", "東", "京" and "é"
    for (let at = 1; at < bytes; at++) {
      expect(split(cut(text, at)).lines, `cut at byte ${at}`).toEqual(['{"name":"Zürich-東京"}', '{"x":"é"}']);
    }
    expect(split(cut(text, 3, 12, 13, 14, 18, 19, 20)).lines).toEqual(['{"name":"Zürich-東京"}', '{"x":"é"}']);
  });

  it('gives the last line of a body that ends without a newline', () => {
    expect(split(cut('{"a":1}\n{"b":"ü"} ', 12))).toEqual({ lines: ['{"a":1}'], stopped: false, rest: '{"b":"ü"}' });
    expect(split(cut('{"a":1}\n')).rest).toBe('');
  });

  it('stops at the line its consumer refuses', () => {
    expect(split(cut('1\n2\n3\n', 3), 2)).toEqual({ lines: ['1', '2'], stopped: true, rest: '' });
  });

  it('keeps nothing once a line is complete', () => {
    const splitter = new LineSplitter();
    splitter.push(Buffer.from('{"a":'), () => true);
    splitter.push(Buffer.from('1}\n'), () => true);
    expect(splitter.end()).toBe('');
  });

  it('keeps no view of a chunk while a line is still arriving', () => {
    // over HTTP/2 a chunk is a view of the connection's read buffer, which also carries other streams' frames
    const read = Buffer.from('{"a":1}\n{"b":', 'utf8');
    const splitter = new LineSplitter();
    const lines: string[] = [];
    splitter.push(read, (line) => lines.push(line) > 0);
    read.fill('x');
    splitter.push(Buffer.from('2}\n', 'utf8'), (line) => lines.push(line) > 0);
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });
});
