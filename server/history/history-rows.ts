import 'server-only';
import { objectRefSchema, severitySchema } from '@/lib/api/dto';
import type { FindingEvent, FindingEventKind, FindingState } from '@/lib/history/finding-lifecycle';
import { z } from 'zod';
import { FindingHistoryError } from './finding-history-repository';

/** A `finding_states` row: JSON columns are text in SQLite and parsed JSONB in PostgreSQL; BIGINTs may be strings. */
export interface StateRow {
  cluster_id: string;
  finding_id: string;
  detector: string;
  subject: unknown;
  title: string;
  severity: string;
  digest: string;
  refs: unknown;
  opened_at: number | string;
  resolved_at: number | string | null;
  evidence_at: number | string;
  revision: number;
}

/** A `finding_events` row. */
export interface EventRow {
  cluster_id: string;
  finding_id: string;
  opened_at: number | string;
  kind: string;
  at: number | string;
  detector: string;
  subject: unknown;
  title: string;
  severity: string;
  digest: string;
  refs: unknown;
}

const KINDS = z.enum(['opened', 'severity', 'evidence', 'resolved']);

function json(value: unknown, where: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new FindingHistoryError(`${where} is not valid JSON`, { cause: error });
  }
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new FindingHistoryError(`${where} is malformed: ${result.error.message}`);
  return result.data;
}

function common(row: StateRow | EventRow) {
  const where = `finding ${row.finding_id} of ${row.cluster_id}`;
  return {
    clusterId: row.cluster_id,
    findingId: row.finding_id,
    detector: row.detector,
    subject: parsed(objectRefSchema, json(row.subject, where), where),
    title: row.title,
    severity: parsed(severitySchema, row.severity, where),
    digest: row.digest,
    refs: parsed(z.array(objectRefSchema), json(row.refs, where), where),
    openedAt: Number(row.opened_at),
  };
}

/** A state row as a {@link FindingState}; throws FindingHistoryError on a malformed row. */
export function stateFromRow(row: StateRow): FindingState {
  return {
    ...common(row),
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    evidenceAt: Number(row.evidence_at),
    revision: Number(row.revision),
  };
}

/** An event row as a {@link FindingEvent}; throws FindingHistoryError on a malformed row. */
export function eventFromRow(row: EventRow): FindingEvent {
  const kind: FindingEventKind = parsed(KINDS, row.kind, `event of finding ${row.finding_id}`);
  return { ...common(row), kind, at: Number(row.at) };
}

/** A state's column values in the order both stores write them (detector … revision; the keys go separately). */
export function stateValues(state: FindingState): (string | number | null)[] {
  return [
    state.detector,
    JSON.stringify(state.subject),
    state.title,
    state.severity,
    state.digest,
    JSON.stringify(state.refs),
    state.openedAt,
    state.resolvedAt,
    state.evidenceAt,
    state.revision,
  ];
}
