/**
 * Small helpers shared by the update-progress modules: time arithmetic that rounds the way Go's `time.Duration`
 * does (so numbers match `oc adm upgrade status`), `oc`'s short duration wording, and label-selector matching.
 */
import type { KubeObject } from '@/lib/k8s/types';

/** One minute in milliseconds. */
export const MINUTE_MS = 60_000;
/** One second in milliseconds. */
export const SECOND_MS = 1_000;

/** Parses an RFC 3339 timestamp to epoch ms; `undefined` when absent or invalid. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** Formats epoch ms as RFC 3339 without milliseconds, or `null`. */
export function formatTime(ms: number | undefined): string | null {
  if (ms === undefined || !Number.isFinite(ms)) return null;
  return new Date(Math.floor(ms / SECOND_MS) * SECOND_MS).toISOString().replace('.000Z', 'Z');
}

/**
 * Formats epoch ms as RFC 3339 keeping milliseconds when there are any, or `null`. For instants whose age `oc`
 * truncates to seconds (insights' SINCE): flooring them first would add up to a second.
 */
export function formatInstant(ms: number | undefined): string | null {
  if (ms === undefined || !Number.isFinite(ms)) return null;
  return new Date(Math.floor(ms)).toISOString().replace('.000Z', 'Z');
}

/** Go `Duration.Round`: to the nearest multiple of `unit`, halves away from zero. */
export function roundDuration(ms: number, unit: number): number {
  const rounded = Math.floor(Math.abs(ms) / unit + 0.5) * unit;
  return ms < 0 ? -rounded : rounded;
}

/** Go `Duration.Truncate`: toward zero to a multiple of `unit`. */
export function truncateDuration(ms: number, unit: number): number {
  const truncated = Math.floor(Math.abs(ms) / unit) * unit;
  return ms < 0 ? -truncated : truncated;
}

/** Go's `%.0f` of a percentage: nearest integer, exact halves to even. */
export function roundPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

function goDurationString(totalSeconds: number): string {
  const sign = totalSeconds < 0 ? '-' : '';
  let rest = Math.abs(Math.trunc(totalSeconds));
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

/**
 * `oc`'s short duration (`1h59m`, `14m`, `1h0m17s`, `6s`, `now`) of a number of seconds; fractions are dropped.
 */
export function formatShortDuration(seconds: number): string {
  const full = goDurationString(seconds);
  if (full === '0s') return 'now';
  if (full.endsWith('h0m0s')) return full.slice(0, -4);
  if (full.endsWith('m0s')) return full.slice(0, -2);
  return full;
}

/** An annotation value, or `undefined`. */
export function annotation(object: KubeObject, key: string): string | undefined {
  return object.metadata.annotations?.[key];
}

/** `spec` of an object as a loose record. */
export function specOf(object: KubeObject | undefined): Record<string, unknown> {
  const spec = object?.spec;
  return typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>) : {};
}

/** `status` of an object as a loose record. */
export function statusOf(object: KubeObject | undefined): Record<string, unknown> {
  const status = object?.status;
  return typeof status === 'object' && status !== null ? (status as Record<string, unknown>) : {};
}

/** What {@link poolNodeCounts} reads of a worker pool. */
export interface PoolNodes {
  updatedNodes: number;
  totalNodes: number;
  nodes?: readonly { assessment: string; phase: string; version: string }[];
}

/**
 * A pool's nodes counted by what is known: `updated` runs the target, `unknown` runs a version nobody can tell
 * (its MachineConfig is not in the data; `oc` prints `?` and calls it Pending, but it may well be up to date).
 */
export function poolNodeCounts(pool: PoolNodes): { updated: number; total: number; unknown: number } {
  const nodes = pool.nodes ?? [];
  if (nodes.length === 0) return { updated: pool.updatedNodes, total: pool.totalNodes, unknown: 0 };
  return {
    updated: nodes.filter((node) => node.phase === 'Updated' && node.version).length,
    total: nodes.length,
    unknown: nodes.filter((node) => node.assessment === 'Unknown' || !node.version).length,
  };
}

/** Whether a pool has a node known not to run the target yet. */
export function poolBehind(pool: PoolNodes): boolean {
  const counts = poolNodeCounts(pool);
  return counts.updated + counts.unknown < counts.total;
}
