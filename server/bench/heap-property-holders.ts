import { snapshotLayout, type HeapSnapshotJson } from './heap-summary';

/** An object holding a string a test looks for, and where its properties live. */
export interface PropertyHolder {
  className: string;
  /** The string it holds (the first one `match` accepted). */
  text: string;
  /**
   * Its properties (some or all) live in a store of their own, a second object: a property array, as V8 gives an
   * object built up property by property past its first few, or a dictionary.
   */
  separateStore: boolean;
}

/** The objects with a property whose value is a string `match` accepts. */
export function propertyHolders(json: HeapSnapshotJson, match: (text: string) => boolean): PropertyHolder[] {
  const layout = snapshotLayout(json);
  const { nodeFields, edgeFields, typeAt, nameAt, sizeAt, edgeCountAt, edgeTypeAt, edgeNameAt, edgeToAt } = layout;
  const { nodeTypes, edgeTypes } = layout;
  const typeOf = (base: number) => nodeTypes[json.nodes[base + typeAt]];
  const found: PropertyHolder[] = [];
  for (let base = 0, edge = 0; base < json.nodes.length; base += nodeFields) {
    const edges = json.nodes[base + edgeCountAt];
    const first = edge;
    edge += edges * edgeFields;
    if (typeOf(base) !== 'object') continue;
    let text: string | undefined;
    let separateStore = false;
    for (let e = first; e < edge; e += edgeFields) {
      const to = json.edges[e + edgeToAt];
      const edgeType = edgeTypes[json.edges[e + edgeTypeAt]];
      const value =
        edgeType === 'property' && typeOf(to).endsWith('string') ? json.strings[json.nodes[to + nameAt]] : '';
      if (text === undefined && value && match(value)) text = value;
      // an empty store is one array shared by every object
      if (edgeType === 'internal' && json.strings[json.edges[e + edgeNameAt]] === 'properties')
        separateStore ||= json.nodes[to + sizeAt] > 16;
    }
    if (text !== undefined) found.push({ className: json.strings[json.nodes[base + nameAt]], text, separateStore });
  }
  return found;
}
