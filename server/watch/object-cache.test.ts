import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { ObjectCache } from './object-cache';

const object = (name: string, resourceVersion = '1', namespace?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, resourceVersion, uid: `uid-${name}` },
});

describe('ObjectCache', () => {
  it('an empty cache (most of an idle fleet’s sources) lists one shared, frozen empty array', () => {
    const a = new ObjectCache();
    const b = new ObjectCache();
    expect(a.list()).toEqual([]);
    expect(a.list()).toBe(b.list());
    expect(Object.isFrozen(a.list())).toBe(true);
    expect(a.size).toBe(0);
    expect(a.keys()).toEqual([]);
    expect(a.get('x')).toBeUndefined();
    expect(a.delete('x')).toBeUndefined();
    expect(a.version).toBe(0);
    expect(a.replace([])).toEqual({ deleted: [], added: [], modified: [] });
    expect(a.list()).toBe(b.list());
  });

  it('keeps objects by namespace/name, shares its list until the next change, and counts changes', () => {
    const cache = new ObjectCache();
    expect(cache.upsert(object('a', '1', 'ns'))).toBeUndefined();
    expect(cache.upsert(object('b'))).toBeUndefined();
    expect(cache.getByName('a', 'ns')?.metadata.resourceVersion).toBe('1');
    expect(cache.get('b')).toBeDefined();
    const listed = cache.list();
    expect(listed.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(cache.list()).toBe(listed);
    const version = cache.version;
    expect(cache.upsert(object('a', '2', 'ns'))?.metadata.resourceVersion).toBe('1');
    expect(cache.version).toBe(version + 1);
    expect(cache.list()).not.toBe(listed);
    expect(cache.delete('ns/a')?.metadata.resourceVersion).toBe('2');
    expect(cache.keys()).toEqual(['b']);
    cache.delete('b');
    expect(cache.size).toBe(0);
    expect(cache.list()).toEqual([]);
  });

  it('replace reports deletions, additions, resourceVersion changes and recreations under the same name', () => {
    const cache = new ObjectCache();
    cache.replace([object('keep'), object('gone'), object('moved')]);
    const recreated = { ...object('keep'), metadata: { name: 'keep', resourceVersion: '1', uid: 'other' } };
    const diff = cache.replace([recreated, object('moved', '2'), object('new')]);
    expect(diff.deleted.map((o) => o.metadata.name).sort()).toEqual(['gone', 'keep']);
    expect(diff.added.map((o) => o.metadata.name).sort()).toEqual(['keep', 'new']);
    expect(diff.modified.map(({ object: o }) => o.metadata.resourceVersion)).toEqual(['2']);
    expect(cache.size).toBe(3);
    expect(cache.replace([]).deleted).toHaveLength(3);
    expect(cache.list()).toEqual([]);
  });
});
