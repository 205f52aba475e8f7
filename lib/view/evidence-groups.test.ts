import { describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { failingPods, groupByFailing, orderEvidence } from './evidence-groups';

describe('groupByFailing', () => {
  it('puts components with a failing pod first, keeping order, and does not match on a bare prefix', () => {
    const out = groupByFailing(['etcd', 'kube-apiserver', 'kube-controller-manager', 'ingress'],
      ['kube-controller-manager-7f9c6d8b5-abcde', 'ingress-operator-1']);
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
