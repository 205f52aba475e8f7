import { describe, expect, it } from 'vitest';
import { safeHttpUrl } from './safe-url';

describe('safeHttpUrl', () => {
  it.each([
    [
      'https://docs.openshift.com/container-platform/4.16/updating/',
      'https://docs.openshift.com/container-platform/4.16/updating/',
    ],
    ['http://example.com', 'http://example.com/'],
    ['javascript:alert(1)', null],
    [' JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['/relative', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (input, out) => {
    expect(safeHttpUrl(input)).toBe(out);
  });
});
