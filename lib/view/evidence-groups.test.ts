import { describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { failingPods, groupByFailing, orderEvidence, shortenLists } from './evidence-groups';

describe('groupByFailing', () => {
  it('puts components with a failing pod first, keeping order, and does not match on a bare prefix', () => {
    const out = groupByFailing(
      ['etcd', 'kube-apiserver', 'kube-controller-manager', 'ingress'],
      ['kube-controller-manager-7f9c6d8b5-abcde', 'ingress-operator-1'],
    );
    expect(out).toEqual({ failing: ['kube-controller-manager'], rest: ['etcd', 'kube-apiserver', 'ingress'] });
  });
});

describe('failingPods', () => {
  it('takes the pods of log evidence, once each', () => {
    const ev: FindingDto['evidence'] = [
      { kind: 'log', label: 'x', ref: { kind: 'Pod', namespace: 'ns', name: 'p-1' }, lines: ['a'] },
      { kind: 'log', label: 'y', ref: { kind: 'Pod', namespace: 'ns', name: 'p-1' }, lines: ['b'] },
      { kind: 'field', label: 'z', ref: { kind: 'Pod', namespace: 'ns', name: 'p-2' }, value: 'v' },
    ];
    expect(failingPods(ev)).toEqual(['p-1']);
  });
});

describe('orderEvidence', () => {
  it('puts log evidence of failing pods first and otherwise keeps the order', () => {
    const ev: FindingDto['evidence'] = [
      { kind: 'field', label: 'a', value: 'x' },
      { kind: 'log', label: 'b', lines: ['l'] },
      { kind: 'field', label: 'c', value: 'y' },
      { kind: 'log', label: 'd', lines: ['l'] },
    ];
    expect(orderEvidence(ev).map((e) => e.label)).toEqual(['b', 'd', 'a', 'c']);
  });
  it('matches DaemonSet pods to their component', () => {
    expect(groupByFailing(['tuned', 'etcd'], ['tuned-x7k2p']).failing).toEqual(['tuned']);
  });
});

describe('shortenLists', () => {
  it('shortens long parenthesised lists and keeps short ones', () => {
    const names = Array.from({ length: 33 }, (_, i) => `c${i}`);
    expect(shortenLists(`required by 33 components (${names.join(', ')}). Other (a, b) stays.`)).toBe(
      'required by 33 components (33: c0, c1, c2 and 30 more). Other (a, b) stays.',
    );
    expect(shortenLists('no lists here')).toBe('no lists here');
  });
});
