import { describe, expect, it } from 'vitest';
import { checkRequestUrl, MAX_SEGMENT_LENGTH } from './url-check';

describe('checkRequestUrl', () => {
  it('accepts ordinary paths and queries, encoded or not', () => {
    expect(checkRequestUrl('/clusters/cross-minor-rollback', '?finding=a%2Fb&range=1h')).toBeUndefined();
    expect(checkRequestUrl('/clusters/hypershift-management.clusters.zstream-stalled/rollback', '')).toBeUndefined();
    expect(checkRequestUrl('/api/clusters', '?q=caf%C3%A9+x')).toBeUndefined();
    expect(checkRequestUrl('/', '')).toBeUndefined();
  });
  it('refuses malformed percent-encoding in the path or the query', () => {
    expect(checkRequestUrl('/clusters/%E0%A4%A', '')).toMatchObject({ where: 'path', message: /malformed/ });
    expect(checkRequestUrl('/api/clusters/%E0%A4%A/health', '')).toMatchObject({ where: 'path' });
    expect(checkRequestUrl('/clusters/x', '?finding=%ZZ')).toMatchObject({ where: 'query parameter "finding"' });
    expect(checkRequestUrl('/clusters/x', '?%E0=1')).toMatchObject({ where: 'a query parameter name' });
    expect(checkRequestUrl('/clusters/x', '?q=%EF%BF%BD')).toMatchObject({ message: /malformed/ });
    // an encoded lone surrogate is not UTF-8
    expect(checkRequestUrl('/clusters/%ED%A0%80', '')).toMatchObject({ message: /malformed/ });
  });
  it('refuses NUL, control and bidi-override characters, and overlong segments', () => {
    expect(checkRequestUrl('/clusters/a%00b', '')).toMatchObject({ message: /control/ });
    expect(checkRequestUrl('/clusters/x', '?q=%E2%80%AEevil')).toMatchObject({ message: /bidirectional/ });
    expect(checkRequestUrl('/clusters/x', '?q=%1B[31m')).toMatchObject({ message: /control/ });
    expect(checkRequestUrl(`/clusters/${'a'.repeat(MAX_SEGMENT_LENGTH + 1)}`, '')).toMatchObject({ message: /longer/ });
    expect(checkRequestUrl('/x', `?q=${'a'.repeat(9000)}`)).toMatchObject({ where: 'url' });
  });
});
