import 'server-only';
import type { IncidentDto } from '@/lib/api/incident-dto';

/**
 * Where incidents live. Async so a PostgreSQL implementation can follow without changing callers; `create` resolves
 * only once the incident is durable, so a link handed out always opens.
 */
export interface IncidentRepository {
  create(incident: IncidentDto): Promise<void>;
  get(id: string): Promise<IncidentDto | undefined>;
  /** What one creator (`null`: incidents without one) stored since `since` (RFC 3339): the quota's measure. */
  usageSince(createdBy: string | null, since: string): Promise<IncidentUsage>;
  /** Deletes every incident created before `cutoff` (RFC 3339); resolves to how many. */
  deleteOlderThan(cutoff: string): Promise<number>;
  close(): Promise<void>;
}

/** Incidents one creator stored in a window: how many, their size (stored JSON bytes), the oldest one's time. */
export interface IncidentUsage {
  count: number;
  bytes: number;
  oldest: string | null;
}

/** A stored incident could not be read back (corrupt row, schema drift). */
export class IncidentStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IncidentStoreError';
  }
}
