import { describe, expect, it } from 'vitest';
import { keepUnchanged } from './keep-unchanged';

const source = (resource: string, lastEventAt: string) => ({ resource, status: 'synced', lastEventAt });

describe('keepUnchanged', () => {
  it('gives the previous value itself when the next one is equal', () => {
    const previous = { id: 'a', sources: [source('pods', 't1'), source('nodes', 't1')], findings: [] };
    const next = structuredClone(previous);
    expect(keepUnchanged(previous, next)).toBe(previous);
  });

  it("keeps every unchanged part of the previous value and takes the next one's changes", () => {
    const previous = {
      id: 'a',
      sources: [source('pods', 't1'), source('nodes', 't1')],
      findings: [{ id: 'f1', evidence: [{ ref: { kind: 'Node', name: 'n1' } }] }],
    };
    const next = structuredClone(previous);
    next.sources[0].lastEventAt = 't2';
    const kept = keepUnchanged(previous, next);
    expect(kept).toEqual(next);
    expect(kept).not.toBe(previous);
    expect(kept.sources).not.toBe(previous.sources);
    expect(kept.sources[0]).not.toBe(previous.sources[0]);
    expect(kept.sources[1]).toBe(previous.sources[1]);
    expect(kept.findings).toBe(previous.findings);
    // neither input is changed
    expect(previous.sources[0].lastEventAt).toBe('t1');
    expect(next.sources[1]).not.toBe(previous.sources[1]);
  });

  it('sees added, removed and reordered items and properties', () => {
    const previous = { list: [1, 2, 3], a: 1, b: { c: 1 } as { c?: number; d?: number } };
    expect(keepUnchanged(previous, { ...previous, list: [1, 2] }).list).toEqual([1, 2]);
    expect(keepUnchanged(previous, { ...previous, list: [1, 2, 3, 4] }).list).toEqual([1, 2, 3, 4]);
    expect(keepUnchanged(previous, { ...previous, list: [3, 2, 1] }).list).toEqual([3, 2, 1]);
    const fewer = keepUnchanged(previous, { list: [1, 2, 3], a: 1 });
    expect(fewer).toEqual({ list: [1, 2, 3], a: 1 });
    expect(fewer.list).toBe(previous.list);
    // an added property that is undefined is still a change of keys
    const added = keepUnchanged(previous, { ...previous, b: { c: 1, d: undefined } });
    expect(Object.keys(added.b)).toEqual(['c', 'd']);
    expect(added.b).not.toBe(previous.b);
  });

  it('takes the next value where the kinds differ, and null and primitives as they are', () => {
    expect(keepUnchanged({ a: [1] }, { a: { 0: 1 } })).toEqual({ a: { 0: 1 } });
    expect(keepUnchanged({ a: null }, { a: {} })).toEqual({ a: {} });
    expect(keepUnchanged({ a: {} }, { a: null })).toEqual({ a: null });
    expect(keepUnchanged(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(keepUnchanged(1, 2)).toBe(2);
  });
});
