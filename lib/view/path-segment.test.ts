import { describe, expect, it } from 'vitest';
import { decodePathSegment } from './path-segment';

describe('decodePathSegment', () => {
  it('decodes escapes and keeps malformed ones verbatim', () => {
    expect(decodePathSegment('cross-minor-rollback')).toBe('cross-minor-rollback');
    expect(decodePathSegment('a%2Fb%20c')).toBe('a/b c');
    expect(decodePathSegment('bad%E0%A4%A')).toBe('bad%E0%A4%A');
  });
});
