import { describe, expect, it } from 'vitest';
import { revealControls, revealingReviver } from './reveal-controls';

describe('revealControls', () => {
  it('makes bidi overrides and isolates visible and leaves other text alone', () => {
    expect(revealControls('payload\u202Egnp.exe')).toBe('payload⟨U+202E⟩gnp.exe');
    expect(revealControls('a\u2066b\u2069c\u200F')).toBe('a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩');
    expect(revealControls('<img src=x onerror=alert(1)> ünïcödé 日本')).toBe(
      '<img src=x onerror=alert(1)> ünïcödé 日本',
    );
  });

  it('applies to every string of parsed JSON, keys untouched', () => {
    expect(JSON.parse('{"m":"x\\u202Ey","n":[1,"\\u202D"],"k\\u202E":true}', revealingReviver)).toEqual({
      m: 'x⟨U+202E⟩y',
      n: [1, '⟨U+202D⟩'],
      'k\u202E': true,
    });
  });
});
