import 'server-only';
import { randomBytes } from 'node:crypto';
import type { MustGatherResultDto } from '@/lib/api/must-gather-dto';
import type { Snapshot } from '@/lib/health/types';

/** Limits of the in-memory result store. */
export interface ResultStoreOptions {
  /** Most results kept; the least recently used goes first (default 20). */
  maxEntries?: number;
  /** Most serialised bytes kept across results (default 256 MiB). */
  maxBytes?: number;
  /** Results older than this are dropped (default 24 h). */
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  result: MustGatherResultDto;
  snapshot?: Snapshot;
  bytes: number;
  storedAt: number;
}

/**
 * Must-gather analyses kept in memory under unguessable ids (128 random bits), bounded by count, bytes and age:
 * a result is a capability link, like an incident, but it is not persisted — a restart forgets it.
 */
export class ResultStore {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: ResultStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 20;
    this.maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 24 * 3_600_000;
    this.now = options.now ?? Date.now;
  }

  /** A fresh id: 22 URL-safe characters. */
  static newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /**
   * Stores a result under its id, with the snapshot it was computed from (kept server-side, for incidents),
   * evicting the oldest results beyond the bounds.
   */
  put(result: MustGatherResultDto, snapshot?: Snapshot): void {
    this.delete(result.id);
    const bytes =
      Buffer.byteLength(JSON.stringify(result)) + (snapshot ? Buffer.byteLength(JSON.stringify(snapshot)) : 0);
    this.entries.set(result.id, { result, snapshot, bytes, storedAt: this.now() });
    this.bytes += bytes;
    this.evict();
  }

  /** The result, when it is still kept; reading it makes it the most recently used. */
  get(id: string): MustGatherResultDto | undefined {
    this.expire();
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.result;
  }

  /** The snapshot a result was computed from, when kept. */
  snapshot(id: string): Snapshot | undefined {
    return this.get(id) ? this.entries.get(id)?.snapshot : undefined;
  }

  size(): number {
    return this.entries.size;
  }

  private delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }

  private expire(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [id, entry] of this.entries) if (entry.storedAt < cutoff) this.delete(id);
  }

  private evict(): void {
    this.expire();
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && (this.bytes <= this.maxBytes || this.entries.size <= 1)) break;
      this.delete(id);
    }
  }
}

const holder = globalThis as unknown as { __updateHealthMustGatherResults?: ResultStore };

/** The process-wide store (shared by every route and page, and across dev hot reloads). */
export function mustGatherResults(): ResultStore {
  holder.__updateHealthMustGatherResults ??= new ResultStore();
  return holder.__updateHealthMustGatherResults;
}
