import { describe, expect, it } from 'vitest';
import { BodyText } from './body-text';

describe('BodyText', () => {
  it('decodes a body cut anywhere, also inside a multi-byte character', () => {
    const text = '{"name":"Zürich-東京","x":"é"}';
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 1; at < bytes.length; at++) {
      const body = new BodyText();
      body.push(bytes.subarray(0, at));
      body.push(bytes.subarray(at));
      expect(body.text(), `cut at byte ${at}`).toBe(text);
      expect(body.bytes).toBe(bytes.length);
    }
  });

  it('keeps no view of a chunk: the buffer under it may carry other data once the chunk is handed over', () => {
    // as an HTTP/2 read buffer holds the frames of many streams, one chunk is a view of part of it
    const read = Buffer.from('{"items":[1,2,3]}{"other":"stream"}', 'utf8');
    const body = new BodyText();
    body.push(read.subarray(0, 10));
    read.fill('x');
    body.push(Buffer.from('3]}', 'utf8'));
    expect(body.text()).toBe('{"items":[1,2,3]}'.slice(0, 10) + '3]}');
  });

  it('ends a character cut at the end of the body as U+FFFD, as Buffer#toString does', () => {
    const cut = Buffer.from('ok é', 'utf8').subarray(0, 4);
    const body = new BodyText();
    body.push(cut);
    expect(body.text()).toBe(cut.toString('utf8'));
  });
});
