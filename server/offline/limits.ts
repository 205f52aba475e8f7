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
};

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
