import { describe, expect, it } from 'vitest';
import {
  heapGraph,
  heapStrings,
  retainedByField,
  selfSizeByClass,
  selfSizeByOwner,
  type HeapSnapshotJson,
} from './heap-summary';

/**
 * A snapshot in V8's format: root → Engine (its `cache` field holds a Map of two strings; `shared` a string the
 * Engine and an Other both point at) and root → Other. Node fields: type, name, id, self_size, edge_count.
 */
function snapshot(): HeapSnapshotJson {
  const strings = ['', 'Engine', 'Map', 'Other', 'cache', 'shared', 'a', 'b', 's', 'weakRef'];
  const NODE = 5;
  const nodes = [
    [3, 0, 1, 0, 2], // 0 root (synthetic)
    [1, 1, 2, 40, 3], // 1 Engine
    [1, 2, 3, 16, 2], // 2 Map
    [2, 6, 4, 100, 0], // 3 string "a"
    [2, 7, 5, 200, 0], // 4 string "b"
    [2, 8, 6, 1000, 0], // 5 string "s" (shared)
    [1, 3, 7, 8, 2], // 6 Other
  ];
  // edge fields: type, name_or_index, to_node (an index into the flat nodes array)
  const edges = [
    [2, 1, 1 * NODE], // root -e1-> Engine (element)
    [2, 2, 6 * NODE], // root -e2-> Other
    [1, 4, 2 * NODE], // Engine.cache -> Map
    [1, 5, 5 * NODE], // Engine.shared -> s
    [3, 9, 3 * NODE], // Engine -weak-> a
    [2, 0, 3 * NODE], // Map[0] -> a
    [2, 1, 4 * NODE], // Map[1] -> b
    [1, 5, 5 * NODE], // Other.shared -> s
    [3, 9, 4 * NODE], // Other -weak-> b
  ];
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
        node_types: [['hidden', 'object', 'string', 'synthetic']],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [['context', 'property', 'element', 'weak']],
      },
    },
    nodes: nodes.flat(),
    edges: edges.flat(),
    strings,
  };
}

describe('heap summary', () => {
  const graph = heapGraph(snapshot());

  it('computes retained sizes over strong edges only, shared objects going to their common dominator', () => {
    expect(graph.retainedSize[0]).toBe(1364);
    // Engine: itself, the Map and both strings it alone holds; "s" is also Other's, so the root retains it.
    expect(graph.retainedSize[1]).toBe(40 + 16 + 100 + 200);
    expect(graph.retainedSize[6]).toBe(8);
  });

  it('sums self sizes by constructor and by nearest owning class', () => {
    expect(selfSizeByClass(graph, 2)).toEqual([
      { name: '(string)', count: 3, bytes: 1300 },
      { name: 'Engine', count: 1, bytes: 40 },
    ]);
    expect(selfSizeByOwner(graph)).toContainEqual({ name: 'Engine', count: 1, bytes: 356 });
    expect(selfSizeByOwner(graph)).toContainEqual({ name: '(root)', count: 0, bytes: 1000 });
  });

  it('finds the strings whose text matches, and only strings (not the names of objects)', () => {
    expect(heapStrings(snapshot(), () => true)).toEqual(['a', 'b', 's']);
    expect(heapStrings(snapshot(), (text) => text !== 'b')).toEqual(['a', 's']);
  });

  it('charges each field of an owner with what it alone keeps alive', () => {
    expect(retainedByField(graph, 'Engine')).toEqual([
      { name: 'Engine.cache', count: 1, bytes: 316 },
      { name: 'Engine (self)', count: 1, bytes: 40 },
    ]);
  });
});
