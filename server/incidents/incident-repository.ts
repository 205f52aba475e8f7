import 'server-only';
import type { IncidentDto } from '@/lib/api/incident-dto';

/**
 * Where incidents live. Async so a PostgreSQL implementation can follow without changing callers; `create` resolves
 * only once the incident is durable, so a link handed out always opens.
 */
export interface IncidentRepository {
  create(incident: IncidentDto): Promise<void>;
  get(id: string): Promise<IncidentDto | undefined>;
  close(): Promise<void>;
}

/** A stored incident could not be read back (corrupt row, schema drift). */
export class IncidentStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IncidentStoreError';
  }
}
