import 'server-only';

/**
 * Caps that keep hostile or broken input from exhausting memory or time. Every reader enforces them while
 * streaming, so a limit trips before the offending data is held in memory.
 */
export interface OfflineLimits {
  /** Largest resource YAML/JSON entry read into memory, in bytes. */
  maxEntryBytes: number;
  /** Longest line in a resource YAML/JSON entry, in bytes; minified JSON is one line, so this stays generous. */
  maxLineBytes: number;
  /** Total bytes of all resource YAML/JSON parsed. */
  maxTotalYamlBytes: number;
  /** Total decompressed bytes of an archive (logs included, even when skipped). */
  maxDecompressedBytes: number;
  /** Largest decompressed / compressed ratio, checked once `ratioGraceBytes` were decompressed. */
  maxCompressionRatio: number;
  ratioGraceBytes: number;
  /** Resolved size of one parsed document (nodes plus string characters) relative to its source size, plus slack. */
  maxExpansionFactor: number;
  /** Deepest nesting of a parsed document, and of a directory tree. */
  maxDepth: number;
  /** Most entries (files, directories) looked at in one input. */
  maxEntries: number;
  /** Log tails: longest kept line (longer ones are cut) and most bytes kept per container. */
  maxLogLineBytes: number;
  maxLogTailBytes: number;
  /** Most distinct objects kept for the analysis: what stays in memory until the end, whatever else is skipped. */
  maxObjects: number;
}

/** Defaults: real must-gather YAML compresses about 18.5×, so 200× is far outside anything legitimate. */
export const DEFAULT_OFFLINE_LIMITS: OfflineLimits = {
  maxEntryBytes: 256 * 1024 * 1024,
  maxLineBytes: 16 * 1024 * 1024,
  maxTotalYamlBytes: 8 * 1024 * 1024 * 1024,
  maxDecompressedBytes: 64 * 1024 * 1024 * 1024,
  maxCompressionRatio: 200,
  ratioGraceBytes: 32 * 1024 * 1024,
  maxExpansionFactor: 2,
  maxDepth: 256,
  maxEntries: 2_000_000,
  maxLogLineBytes: 64 * 1024,
  maxLogTailBytes: 4 * 1024 * 1024,
  maxObjects: Number.POSITIVE_INFINITY,
};

/**
 * Heap of one analysis worker (MiB). The deployment gives the service a 1024 MiB heap in a 2560 MiB container: two
 * workers of 512 MiB fit beside it with room for uploads in flight. The worker is where a hostile archive runs out
 * of memory, never the process that serves everyone else.
 */
export const ANALYSIS_WORKER_HEAP_MB = 512;
/** Analyses running at once across all users (each in its own worker); each user runs one at a time. */
export const MAX_CONCURRENT_ANALYSES = 2;
/**
 * Heap a kept object is budgeted: 175k small ClusterOperators (the hostile archive of analysis-runner.test) grew a
 * heap by about 170 MiB, 1 KiB each; pods with their containers hold more. Kept objects get a third of the heap, so
 * that parsing, the snapshot and the assessment fit beside them.
 */
const HEAP_BYTES_PER_OBJECT = 2 * 1024;

/**
 * Caps for a worker with `heapMb` of heap: the object count and the size of one entry read whole scale with it, so a
 * limit trips with a clear message before the worker runs out of memory (which stays the last line of defence).
 */
export function limitsForHeap(heapMb: number): OfflineLimits {
  const heapBytes = heapMb * 1024 * 1024;
  return {
    ...DEFAULT_OFFLINE_LIMITS,
    maxObjects: Math.floor(heapBytes / 3 / HEAP_BYTES_PER_OBJECT),
    // A string holds up to two bytes per character, the parsed tree `maxExpansionFactor` times its source.
    maxEntryBytes: Math.min(DEFAULT_OFFLINE_LIMITS.maxEntryBytes, Math.floor(heapBytes / 16)),
    maxLineBytes: Math.min(DEFAULT_OFFLINE_LIMITS.maxLineBytes, Math.floor(heapBytes / 64)),
  };
}

/** Human form of a byte count for error messages (`16 MiB`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
