import 'server-only';

/**
 * A bounded cache of answers that expire: at most `maxEntries`, the least recently used evicted one at a time when
 * full (never cleared whole, so a flood of new keys cannot drop everyone else at once).
 */
export class ExpiringLru<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {
    if (!(maxEntries >= 1)) throw new RangeError('a cache needs room for at least one entry');
  }

  /** The live value for `key` (marking it recently used), or undefined when absent or expired. */
  get(key: string): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= this.now()) return undefined;
    this.entries.set(key, entry);
    return { value: entry.value };
  }

  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}
