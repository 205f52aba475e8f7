import type { ClusterSummaryDto, SourceStateDto, SummaryPatchMessage } from '@/lib/api/dto';

type Row = ClusterSummaryDto;
type Settable = NonNullable<SummaryPatchMessage['set']>;
type Unsettable = NonNullable<SummaryPatchMessage['unset']>[number];

const OPTIONAL: readonly Unsettable[] = ['worstFinding', 'managedBy', 'channel', 'discoveredBy', 'reachability'];
const FIELDS: readonly (keyof Settable)[] = [
  'name',
  'version',
  'desiredVersion',
  'updating',
  'worstSeverity',
  'worstFinding',
  'findingCounts',
  'role',
  'managedBy',
  'channel',
  'discoveredBy',
  'reachability',
];

const same = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** The key a source is matched by across messages: its resource and namespace. */
export function sourceKey(source: Pick<SourceStateDto, 'resource' | 'namespace'>): string {
  return `${source.resource}\u0000${source.namespace ?? ''}`;
}

/**
 * What changed from one fleet row to the next of the same cluster, as a `summary-patch` message; undefined when
 * nothing did. Sources whose state is unchanged are left out; when sources were added, removed or reordered the
 * patch carries the whole list instead.
 */
export function summaryPatch(prev: Row, next: Row): SummaryPatchMessage | undefined {
  const set: Settable = {};
  const unset: Unsettable[] = [];
  for (const field of FIELDS) {
    if (same(prev[field], next[field])) continue;
    if (next[field] === undefined && (OPTIONAL as readonly string[]).includes(field)) unset.push(field as Unsettable);
    else Object.assign(set, { [field]: next[field] });
  }
  const patch: SummaryPatchMessage = { type: 'summary-patch', clusterId: next.id };
  if (Object.keys(set).length > 0) patch.set = set;
  if (unset.length > 0) patch.unset = unset;
  const prevKeys = prev.sources.map(sourceKey);
  const nextKeys = next.sources.map(sourceKey);
  if (prevKeys.length !== nextKeys.length || prevKeys.some((key, i) => key !== nextKeys[i])) {
    patch.sourceList = next.sources;
  } else {
    const changed = next.sources.filter((source, i) => !same(source, prev.sources[i]));
    if (changed.length > 0) patch.sources = changed;
  }
  return patch.set || patch.unset || patch.sources || patch.sourceList ? patch : undefined;
}

/** A fleet row with a `summary-patch` applied: applying `summaryPatch(prev, next)` to `prev` gives `next`. */
export function applySummaryPatch(row: Row, patch: SummaryPatchMessage): Row {
  const out: Row = { ...row, ...patch.set };
  for (const field of patch.unset ?? []) delete out[field];
  if (patch.sourceList) {
    out.sources = patch.sourceList;
  } else if (patch.sources) {
    const changed = new Map(patch.sources.map((source) => [sourceKey(source), source]));
    const known = new Set(row.sources.map(sourceKey));
    out.sources = [
      ...row.sources.map((source) => changed.get(sourceKey(source)) ?? source),
      ...patch.sources.filter((source) => !known.has(sourceKey(source))),
    ];
  }
  return out;
}
