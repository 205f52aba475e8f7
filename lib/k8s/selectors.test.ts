import { describe, expect, it } from 'vitest';
import type { KubeObject } from './types';
import { SelectorError, compileFieldSelector, compileLabelSelector, matchesSelector } from './selectors';

const pod = (name: string, labels: Record<string, string>, nodeName = 'worker-0'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'openshift-catalogd', labels },
  spec: { nodeName },
});

describe('label selectors', () => {
  const a = pod('a', { 'control-plane': 'catalogd-controller-manager', tier: 'x' });
  const b = pod('b', { app: 'ovnkube-node' });
  it.each([
    ['control-plane=catalogd-controller-manager', [true, false]],
    ['app!=ovnkube-node', [true, false]],
    ['app in (ovnkube-node, other)', [false, true]],
    ['tier', [true, false]],
    ['!tier', [false, true]],
    ['tier,control-plane==catalogd-controller-manager', [true, false]],
  ])('%s', (selector, expected) => {
    const match = compileLabelSelector(selector)!;
    expect([match(a), match(b)]).toEqual(expected);
  });

  it('matches everything when empty and rejects malformed selectors with the API server wording', () => {
    expect(compileLabelSelector(undefined)).toBeUndefined();
    expect(() => compileLabelSelector('a b')).toThrow(SelectorError);
  });
});

describe('field selectors', () => {
  it('selects pods by node and refuses unknown fields', () => {
    const match = compileFieldSelector('pods', 'spec.nodeName=worker-1')!;
    expect(match(pod('a', {}, 'worker-1'))).toBe(true);
    expect(match(pod('a', {}, 'worker-0'))).toBe(false);
    expect(() => compileFieldSelector('pods', 'status.hostIP=1')).toThrow(/not a known field selector/);
  });
});

describe('matchesSelector', () => {
  it('matches label selectors', () => {
    const selector = {
      matchExpressions: [
        { key: 'a', operator: 'In', values: ['x'] },
        { key: 'b', operator: 'DoesNotExist' },
      ],
    };
    expect(matchesSelector(selector, { a: 'x' })).toBe(true);
    expect(matchesSelector(selector, { a: 'x', b: '' })).toBe(false);
    expect(matchesSelector({}, {})).toBe(true);
    expect(matchesSelector(undefined, {})).toBe(false);
  });
});
