import { clusterSummarySchema, optionalSummaryFieldSchema } from '@/lib/api/dto';
import type { ClusterSummaryDto, SummaryPatchMessage } from '@/lib/api/dto';

type Row = ClusterSummaryDto;
type Settable = NonNullable<SummaryPatchMessage['set']>;
type Unsettable = NonNullable<SummaryPatchMessage['unset']>[number];

const OPTIONAL: ReadonlySet<string> = new Set(optionalSummaryFieldSchema.options);
// Every field of the row but its id, from the schema: a field added to the row is patched without a list to update.
const FIELDS = clusterSummarySchema.keyof().options.filter((field) => field !== 'id');

const same = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * What changed from one fleet row to the next of the same cluster, as a `summary-patch` message; undefined when
 * nothing did. A changed field goes whole in `set` (the compact `sources` too), an optional field that is gone in
 * `unset`.
 */
export function summaryPatch(prev: Row, next: Row): SummaryPatchMessage | undefined {
  const set: Settable = {};
  const unset: Unsettable[] = [];
  for (const field of FIELDS) {
    if (same(prev[field], next[field])) continue;
    if (next[field] === undefined && OPTIONAL.has(field)) unset.push(field as Unsettable);
    else Object.assign(set, { [field]: next[field] });
  }
  const patch: SummaryPatchMessage = { type: 'summary-patch', clusterId: next.id };
  if (Object.keys(set).length > 0) patch.set = set;
  if (unset.length > 0) patch.unset = unset;
  return patch.set || patch.unset ? patch : undefined;
}

/** A fleet row with a `summary-patch` applied: applying `summaryPatch(prev, next)` to `prev` gives `next`. */
export function applySummaryPatch(row: Row, patch: SummaryPatchMessage): Row {
  const out: Row = { ...row, ...patch.set };
  for (const field of patch.unset ?? []) delete out[field];
  return out;
}
