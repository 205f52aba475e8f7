import { describe, expect, it } from 'vitest';
import { badnessRank, compareByBadness, countKinds } from './badness-order';

describe('compareByBadness', () => {
  it('puts crash-looping pods first, then not ready, then healthy, each by restarts then name', () => {
    const pods = [
      { name: 'a-ok', status: 'Running', ready: '1/1', restarts: 0 },
      { name: 'b-pending', status: 'Pending', ready: '0/1', restarts: 0 },
      { name: 'c-crash', status: 'CrashLoopBackOff', ready: '0/1', restarts: 3 },
      { name: 'd-crash', status: 'CrashLoopBackOff', ready: '0/1', restarts: 9 },
      { name: 'e-unready', status: 'Running', ready: '1/2', restarts: 0 },
    ];
    expect([...pods].sort(compareByBadness).map((p) => p.name)).toEqual([
      'd-crash',
      'c-crash',
      'b-pending',
      'e-unready',
      'a-ok',
    ]);
  });

  it('puts unavailable components before ones still rolling out, before healthy ones', () => {
    const comps = [
      { name: 'etcd', available: 'True', rolloutComplete: 'True' },
      { name: 'kas', available: 'True', rolloutComplete: 'False' },
      { name: 'kcm', available: 'False', rolloutComplete: 'False' },
    ];
    expect([...comps].sort(compareByBadness).map((c) => c.name)).toEqual(['kcm', 'kas', 'etcd']);
    expect(badnessRank({ name: 'x', degraded: 'True' })).toBe(2);
  });
});

describe('countKinds', () => {
  it('counts items per kind, most common first', () => {
    expect(countKinds(['a-1', 'b-1', 'a-2'], (s) => s.split('-')[0])).toEqual([
      { kind: 'a', count: 2 },
      { kind: 'b', count: 1 },
    ]);
  });
});
