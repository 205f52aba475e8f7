import { describe, expect, it } from 'vitest';
import { compareVersions, isCrossMinorDowngrade, isOlderVersion, minorOf, parseVersion } from '@/lib/k8s/version';

describe('parseVersion', () => {
  it.each([
    ['4.14.1', { major: 4, minor: 14, patch: 1, prerelease: [], raw: '4.14.1' }],
    ['4.15.0-ec.2', { major: 4, minor: 15, patch: 0, prerelease: ['ec', '2'], raw: '4.15.0-ec.2' }],
    ['4.14.0-rc.3+build.1', { major: 4, minor: 14, patch: 0, prerelease: ['rc', '3'], raw: '4.14.0-rc.3+build.1' }],
    [' v4.16.0 ', { major: 4, minor: 16, patch: 0, prerelease: [], raw: 'v4.16.0' }],
  ])('parses %s', (input, expected) => {
    expect(parseVersion(input)).toStrictEqual(expected);
  });

  it.each(['', '4.14', 'latest', '4.x.1', '4.14.1-'])('rejects %j', (input) => {
    expect(parseVersion(input)).toBeUndefined();
  });
});

describe('compareVersions', () => {
  it.each([
    ['4.14.1', '4.14.1', 0],
    ['4.14.1', '4.14.2', -1],
    ['4.14.39', '4.14.38', 1],
    ['4.9.0', '4.10.0', -1],
    ['4.15.0-ec.2', '4.15.0', -1],
    ['4.15.0-ec.2', '4.15.0-ec.10', -1],
    ['4.15.0-ec.3', '4.15.0-rc.0', -1],
    ['4.14.0-rc.3', '4.14.0-rc.3.1', -1],
    ['4.14.0-1', '4.14.0-alpha', -1],
    ['garbage', '4.1.0', -1],
    ['a', 'b', -1],
  ])('%s vs %s → %i', (a, b, sign) => {
    expect(compareVersions(a, b)).toBe(sign);
    expect(compareVersions(b, a)).toBe(sign === 0 ? 0 : -sign);
  });

  it('sorts a release history', () => {
    const sorted = ['4.14.1', '4.14.0-rc.3', '4.13.9', '4.15.0-ec.2', '4.14.0'].sort(compareVersions);
    expect(sorted).toStrictEqual(['4.13.9', '4.14.0-rc.3', '4.14.0', '4.14.1', '4.15.0-ec.2']);
  });
});

describe('compareVersions on the release history timeline', () => {
  it.each([
    ['4.14.38', '4.14.39', -1],
    ['4.14.9', '4.14.10', -1],
    ['4.13.0', '4.14.0', -1],
    ['4.16.0-ec.2', '4.16.0', -1],
    ['4.16.0-ec.2', '4.16.0-ec.10', -1],
    ['4.16.0-rc.1', '4.16.0-ec.3', 1],
    ['4.15.3', '4.15.3', 0],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

describe('minorOf / isCrossMinorDowngrade', () => {
  it('returns the minor', () => {
    expect(minorOf('4.15.0-ec.2')).toBe('4.15');
    expect(minorOf('nope')).toBeUndefined();
  });

  it.each([
    ['4.14.1', '4.13.9', true],
    ['4.14.2', '4.14.1', false],
    ['4.13.9', '4.14.1', false],
    ['5.0.0', '4.21.0', true],
    ['x', '4.13.0', false],
  ])('%s → %s cross-minor downgrade: %s', (from, to, expected) => {
    expect(isCrossMinorDowngrade(from, to)).toBe(expected);
  });
});

describe('isOlderVersion', () => {
  it.each([
    ['4.14.1', '4.14.2', true],
    ['4.14.2', '4.14.1', false],
    ['4.15.0-ec.2', '4.15.0', true],
    ['', '4.14.1', false],
    ['4.14.1', '', false],
    ['garbage', '4.1.0', false],
    [null, '4.1.0', false],
  ])('%j older than %j: %s', (a, b, expected) => {
    expect(isOlderVersion(a, b)).toBe(expected);
  });
});
