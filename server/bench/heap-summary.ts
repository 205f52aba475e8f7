/**
 * `npm run bench -- heap-summary FILE.heapsnapshot [--top 30] [--owner ClassName ...]`: where a V8 heap snapshot's
 * memory goes. Prints the self size per constructor (what kind of object holds the bytes), and for each `--owner`
 * class the size its fields retain, summed over all its instances (which field of which owner keeps the bytes
 * alive: `ObjectCache.items`, `ClusterEngine.series` ...). Retained sizes come from the dominator tree, as in the
 * browser's memory tool. Take the snapshot with `node --heapsnapshot-signal=SIGUSR2` or `v8.writeHeapSnapshot()`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The parts of the `.heapsnapshot` JSON this reads. */
export interface HeapSnapshotJson {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** One row of a summary: a name, how many objects it covers and their bytes. */
export interface HeapRow {
  name: string;
  count: number;
  bytes: number;
}

/** The graph of a snapshot in flat arrays, with each node's retained size (its dominator subtree). */
export interface HeapGraph {
  nodeCount: number;
  /** Per node: constructor or type name (objects by constructor, the rest by V8 type, e.g. `(string)`). */
  className: string[];
  selfSize: Float64Array;
  retainedSize: Float64Array;
  /** Per node: its first edge's index in `edgeTarget`/`edgeName`; `firstEdge[n + 1]` ends its edges. */
  firstEdge: Uint32Array;
  edgeTarget: Uint32Array;
  edgeName: string[];
  /** Weak edges do not keep their target alive and take no part in retention. */
  edgeWeak: Uint8Array;
  dominator: Int32Array;
}

/** Where each field sits in a snapshot's flat `nodes` and `edges` arrays, and the names of node and edge types. */
export function snapshotLayout(json: HeapSnapshotJson) {
  const meta = json.snapshot.meta;
  return {
    nodeFields: meta.node_fields.length,
    edgeFields: meta.edge_fields.length,
    typeAt: meta.node_fields.indexOf('type'),
    nameAt: meta.node_fields.indexOf('name'),
    sizeAt: meta.node_fields.indexOf('self_size'),
    edgeCountAt: meta.node_fields.indexOf('edge_count'),
    edgeTypeAt: meta.edge_fields.indexOf('type'),
    edgeNameAt: meta.edge_fields.indexOf('name_or_index'),
    edgeToAt: meta.edge_fields.indexOf('to_node'),
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
  };
}

/** Reads a snapshot into flat arrays and computes dominators and retained sizes (root: node 0). */
export function heapGraph(json: HeapSnapshotJson): HeapGraph {
  const layout = snapshotLayout(json);
  const { nodeFields, edgeFields, typeAt, nameAt, sizeAt, edgeCountAt, edgeTypeAt, edgeNameAt, edgeToAt } = layout;
  const { nodeTypes, edgeTypes } = layout;
  const nodeCount = json.nodes.length / nodeFields;
  const edgeCount = json.edges.length / edgeFields;

  const className: string[] = new Array(nodeCount);
  const selfSize = new Float64Array(nodeCount);
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let n = 0, edge = 0; n < nodeCount; n += 1) {
    const base = n * nodeFields;
    const type = nodeTypes[json.nodes[base + typeAt]];
    const name = json.strings[json.nodes[base + nameAt]];
    className[n] = type === 'object' || type === 'native' ? name : `(${type})`;
    selfSize[n] = json.nodes[base + sizeAt];
    firstEdge[n] = edge;
    edge += json.nodes[base + edgeCountAt];
    firstEdge[n + 1] = edge;
  }
  const edgeTarget = new Uint32Array(edgeCount);
  const edgeName: string[] = new Array(edgeCount);
  const edgeWeak = new Uint8Array(edgeCount);
  for (let e = 0; e < edgeCount; e += 1) {
    const base = e * edgeFields;
    const type = edgeTypes[json.edges[base + edgeTypeAt]];
    const nameOrIndex = json.edges[base + edgeNameAt];
    edgeTarget[e] = json.edges[base + edgeToAt] / nodeFields;
    edgeName[e] = type === 'element' || type === 'hidden' ? String(nameOrIndex) : json.strings[nameOrIndex];
    edgeWeak[e] = type === 'weak' || type === 'shortcut' ? 1 : 0;
  }

  // Post-order from the root over strong edges (iterative: the graph is millions of nodes deep in places).
  const order = new Int32Array(nodeCount).fill(-1);
  const postorder: number[] = [];
  const stack: number[] = [0];
  const cursor = new Uint32Array(nodeCount);
  const visited = new Uint8Array(nodeCount);
  visited[0] = 1;
  cursor[0] = firstEdge[0];
  while (stack.length > 0) {
    const n = stack[stack.length - 1];
    let pushed = false;
    while (cursor[n] < firstEdge[n + 1]) {
      const e = cursor[n]++;
      if (edgeWeak[e]) continue;
      const to = edgeTarget[e];
      if (visited[to]) continue;
      visited[to] = 1;
      cursor[to] = firstEdge[to];
      stack.push(to);
      pushed = true;
      break;
    }
    if (!pushed) {
      order[n] = postorder.length;
      postorder.push(n);
      stack.pop();
    }
  }
  // Predecessors of reachable nodes, for the iterative dominator algorithm (Cooper, Harvey and Kennedy).
  const predCount = new Uint32Array(nodeCount + 1);
  for (let n = 0; n < nodeCount; n += 1) {
    if (!visited[n]) continue;
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += 1) if (!edgeWeak[e]) predCount[edgeTarget[e] + 1] += 1;
  }
  for (let n = 0; n < nodeCount; n += 1) predCount[n + 1] += predCount[n];
  const preds = new Uint32Array(predCount[nodeCount]);
  const fill = predCount.slice(0, nodeCount);
  for (let n = 0; n < nodeCount; n += 1) {
    if (!visited[n]) continue;
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += 1) if (!edgeWeak[e]) preds[fill[edgeTarget[e]]++] = n;
  }
  const dominator = new Int32Array(nodeCount).fill(-1);
  dominator[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a] < order[b]) a = dominator[a];
      while (order[b] < order[a]) b = dominator[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = postorder.length - 2; i >= 0; i -= 1) {
      const n = postorder[i];
      let idom = -1;
      for (let p = predCount[n]; p < predCount[n + 1]; p += 1) {
        const pred = preds[p];
        if (dominator[pred] === -1) continue;
        idom = idom === -1 ? pred : intersect(pred, idom);
      }
      if (idom !== -1 && dominator[n] !== idom) {
        dominator[n] = idom;
        changed = true;
      }
    }
  }
  const retainedSize = new Float64Array(nodeCount);
  for (const n of postorder) {
    retainedSize[n] += selfSize[n];
    if (n !== 0 && dominator[n] >= 0) retainedSize[dominator[n]] += retainedSize[n];
  }
  return { nodeCount, className, selfSize, retainedSize, firstEdge, edgeTarget, edgeName, edgeWeak, dominator };
}

/**
 * The text of every string in the snapshot that `match` accepts: flat, concatenated and sliced strings alike (a
 * sliced string is there with its own text, and its parent, the string it keeps alive, with all of its). V8 cuts the
 * text of very long strings short in a snapshot.
 */
export function heapStrings(json: HeapSnapshotJson, match: (text: string) => boolean): string[] {
  const { nodeFields, typeAt, nameAt, nodeTypes } = snapshotLayout(json);
  const found: string[] = [];
  for (let base = 0; base < json.nodes.length; base += nodeFields) {
    if (!nodeTypes[json.nodes[base + typeAt]].endsWith('string')) continue;
    const text = json.strings[json.nodes[base + nameAt]];
    if (match(text)) found.push(text);
  }
  return found;
}

function sorted(rows: Map<string, HeapRow>, top: number): HeapRow[] {
  return [...rows.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
}

/** Self size per constructor (or V8 type), largest first. */
export function selfSizeByClass(graph: HeapGraph, top = 30): HeapRow[] {
  const rows = new Map<string, HeapRow>();
  for (let n = 0; n < graph.nodeCount; n += 1) {
    if (graph.dominator[n] === -1) continue;
    const name = graph.className[n];
    const row = rows.get(name) ?? { name, count: 0, bytes: 0 };
    row.count += 1;
    row.bytes += graph.selfSize[n];
    rows.set(name, row);
  }
  return sorted(rows, top);
}

/**
 * What the fields of every `owner` instance retain: for each named edge `owner.field`, the retained size of its
 * targets that the owner dominates (bytes freed if the field were dropped), summed over instances.
 */
export function retainedByField(graph: HeapGraph, owner: string, top = 30): HeapRow[] {
  const rows = new Map<string, HeapRow>();
  for (let n = 0; n < graph.nodeCount; n += 1) {
    if (graph.className[n] !== owner || graph.dominator[n] === -1) continue;
    const own = rows.get(`${owner} (self)`) ?? { name: `${owner} (self)`, count: 0, bytes: 0 };
    own.count += 1;
    own.bytes += graph.selfSize[n];
    rows.set(own.name, own);
    for (let e = graph.firstEdge[n]; e < graph.firstEdge[n + 1]; e += 1) {
      const to = graph.edgeTarget[e];
      if (graph.edgeWeak[e] || graph.dominator[to] !== n) continue;
      const name = `${owner}.${graph.edgeName[e]}`;
      const row = rows.get(name) ?? { name, count: 0, bytes: 0 };
      row.count += 1;
      row.bytes += graph.retainedSize[to];
      rows.set(name, row);
    }
  }
  return sorted(rows, top);
}

const GENERIC = new Set(['Object', 'Array', 'Map', 'Set', 'WeakMap', 'Promise', 'Generator', 'Function']);

/** Whether a class names an owner worth reporting (a class of the program, not a generic container or V8 type). */
function namedOwner(name: string): boolean {
  return /^[A-Z]/.test(name) && !GENERIC.has(name) && !name.startsWith('system /');
}

/**
 * Every byte charged to the nearest object that dominates it and whose class is a program's own (not `Object`,
 * `Array`, a string or a V8 internal): a partition of the heap by owner, e.g. all strings a cache keeps alive.
 */
export function selfSizeByOwner(graph: HeapGraph, top = 30): HeapRow[] {
  const owner = new Int32Array(graph.nodeCount).fill(-2);
  const ownerOf = (n: number): number => {
    const path: number[] = [];
    let at = n;
    while (owner[at] === -2) {
      if (at !== n && namedOwner(graph.className[at])) {
        owner[at] = at;
        break;
      }
      path.push(at);
      const up = graph.dominator[at];
      if (up < 0 || up === at) {
        owner[at] = -1;
        break;
      }
      at = up;
    }
    const found = owner[at] === at && at !== n ? at : owner[at];
    for (const step of path) owner[step] = found;
    return found;
  };
  const rows = new Map<string, HeapRow>();
  for (let n = 0; n < graph.nodeCount; n += 1) {
    if (graph.dominator[n] === -1) continue;
    const found = namedOwner(graph.className[n]) ? n : ownerOf(n);
    const name = found < 0 ? '(root)' : graph.className[found];
    const row = rows.get(name) ?? { name, count: 0, bytes: 0 };
    row.count += found === n ? 1 : 0;
    row.bytes += graph.selfSize[n];
    rows.set(name, row);
  }
  return sorted(rows, top);
}

function print(title: string, rows: HeapRow[], total: number): void {
  console.log(`\n${title}`);
  for (const row of rows) {
    const mb = (row.bytes / 1e6).toFixed(1).padStart(8);
    const share = ((100 * row.bytes) / total).toFixed(1).padStart(5);
    console.log(`${mb} MB ${share}% ${String(row.count).padStart(9)}  ${row.name}`);
  }
}

/** Runs the summary; see the file comment. */
export function runHeapSummary(argv: string[] = process.argv.slice(3)): void {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { top: { type: 'string' }, owner: { type: 'string', multiple: true } },
    allowPositionals: true,
    strict: true,
  });
  const [file] = positionals;
  if (!file) throw new Error('usage: heap-summary FILE.heapsnapshot [--top N] [--owner ClassName ...]');
  const top = values.top === undefined ? 30 : Number(values.top);
  if (!Number.isInteger(top) || top <= 0) throw new Error(`--top must be a positive integer, got "${values.top}"`);
  const graph = heapGraph(JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshotJson);
  const total = graph.retainedSize[0];
  console.log(`${file}: ${graph.nodeCount} nodes, ${(total / 1e6).toFixed(1)} MB reachable`);
  print('self size by constructor', selfSizeByClass(graph, top), total);
  print('self size by nearest owning class (count: instances)', selfSizeByOwner(graph, top), total);
  for (const owner of values.owner ?? [])
    print(`retained by the fields of ${owner}`, retainedByField(graph, owner, top), total);
}
