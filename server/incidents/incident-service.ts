import 'server-only';
import type { ClusterHealthDto, ClusterSeriesDto } from '@/lib/api/dto';
import type { CreatedIncidentDto, IncidentDto } from '@/lib/api/incident-dto';
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { Snapshot } from '@/lib/health/types';
import { resourceForKind } from '@/lib/k8s/resources';
import { asString, dig, findObject } from '@/lib/health/shared/objects';
import { REDACTION_RULES, Redactor } from '@/lib/incidents/redact';
import { defaultIncidentTitle } from '@/lib/incidents/incident-title';
import { downsampleSamples, MAX_POINTS } from '@/lib/charts/downsample';
import { clusterIdentifiers } from '@/lib/incidents/cluster-identifiers';
import type { IncidentRepository } from './incident-repository';
import { incidentLimits, type IncidentLimits } from './incident-limits';
import { newIncidentId } from './incident-id';

/** What an incident is frozen from; a `ClusterEngine` is one. */
export interface IncidentSource {
  id: string;
  name: string;
  health(): ClusterHealthDto;
  series(from?: number, to?: number): ClusterSeriesDto;
  snapshot(): Snapshot;
}

/** Options of {@link createIncident}. */
export interface CreateIncidentOptions {
  from?: number;
  to?: number;
  createdBy?: string | null;
  /** Blank or absent: the worst finding's title. */
  title?: string;
  note?: string;
  /** Wall clock for `createdAt` (tests). */
  now?: () => Date;
  /** Rate limit, quota and size limit; default the process-wide {@link incidentLimits}, `null` none (tests). */
  limits?: IncidentLimits | null;
}

const MAX_OBJECTS = 200;

/** How long before the earliest onset the frozen window starts, so the chart shows the cluster before it. */
export const ONSET_MARGIN_MS = 10 * 60_000;

/** The earliest `since` of the findings (epoch ms), if any has one. */
function onsetOf(health: ClusterHealthDto): number | undefined {
  const times = health.findings
    .map((f) => (f.since ? Date.parse(f.since) : Number.NaN))
    .filter((t) => Number.isFinite(t));
  return times.length ? Math.min(...times) : undefined;
}

/**
 * The series of the window, each at most {@link MAX_POINTS} points (min-max downsampled, so spikes survive), with
 * the window's start widened to every finding's onset: an incident frozen two hours into a story keeps its beginning.
 */
function incidentSeries(
  source: IncidentSource,
  health: ClusterHealthDto,
  requested: { from?: number; to?: number },
): { series: ClusterSeriesDto; from: number | undefined } {
  const onset = onsetOf(health);
  const from = onset === undefined ? requested.from : Math.min(requested.from ?? Infinity, onset - ONSET_MARGIN_MS);
  const series = source.series(from, requested.to);
  const samples = Object.fromEntries(
    Object.entries(series.samples).map(([detector, points]) => [detector, downsampleSamples(points, MAX_POINTS)]),
  );
  return { series: { ...series, samples }, from };
}

function refsOf(health: ClusterHealthDto): ObjectRef[] {
  const refs = health.findings.flatMap((f) => [f.subject, ...f.evidence.flatMap((e) => (e.ref ? [e.ref] : []))]);
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The evidence objects behind the findings, found in the snapshot, without managedFields. */
function evidenceObjects(snapshot: Snapshot, health: ClusterHealthDto): KubeObject[] {
  const out: KubeObject[] = [];
  const all = Object.values(snapshot.objects).flat();
  for (const ref of refsOf(health)) {
    const resource = resourceForKind(ref.kind);
    const object = resource
      ? findObject(snapshot, resource, ref.name, ref.namespace)
      : all.find((o) => o?.kind === ref.kind && o.metadata.name === ref.name && o.metadata.namespace === ref.namespace);
    if (!object) continue;
    const metadata = { ...object.metadata };
    delete metadata.managedFields;
    out.push({ ...object, metadata });
    if (out.length >= MAX_OBJECTS) break;
  }
  return out;
}

function seriesStart(series: ClusterSeriesDto): number | undefined {
  const times = [
    ...Object.values(series.samples).flatMap((points) => points.map((p) => p.t)),
    ...series.transitions.map((t) => Date.parse(t.at)).filter((t) => Number.isFinite(t)),
  ];
  return times.length ? Math.min(...times) : undefined;
}

/**
 * Freezes a cluster into an incident: findings and health, chart series from the findings' onset, evidence objects,
 * identity, author, title and note, all redacted by one {@link Redactor} (its report attached), then stored durably.
 * Every creation (cluster view or must-gather) passes the creator's limits first: throws IncidentLimitError when over
 * one.
 */
export async function createIncident(
  source: IncidentSource,
  repository: IncidentRepository,
  options: CreateIncidentOptions = {},
): Promise<CreatedIncidentDto> {
  const limits = options.limits === undefined ? incidentLimits() : options.limits;
  const creator = options.createdBy ?? null;
  limits?.admit(creator);
  const health = source.health();
  const { series, from } = incidentSeries(source, health, options);
  const snapshot = source.snapshot();
  const clusterVersion = findObject(snapshot, 'clusterversions', 'version');
  const redactor = new Redactor(clusterIdentifiers(snapshot));
  const id = newIncidentId();
  const capturedAt = series.now;
  const clusterID = asString(dig(clusterVersion, 'spec', 'clusterID'));
  const redactedHealth = redactor.redact(health, 'health') as ClusterHealthDto;
  const redactedSeries = redactor.redact(series, 'series') as ClusterSeriesDto;
  const clusterName = redactor.text(source.name, 'cluster.name');
  const givenTitle = options.title?.trim();
  const title = givenTitle
    ? { title: redactor.text(givenTitle, 'title'), findingId: null }
    : defaultIncidentTitle(redactedHealth.findings, clusterName);
  const incident: IncidentDto = {
    id,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    createdBy: creator,
    author: creator === null ? { kind: 'local' } : { kind: 'user', name: creator },
    title: title.title,
    titleFindingId: title.findingId,
    note: redactor.text(options.note?.trim() ?? '', 'note'),
    cluster: {
      // The fleet's own key for the cluster stays as it is: readers' access is checked against that cluster.
      id: source.id,
      name: clusterName,
      clusterID: clusterID ? redactor.text(clusterID, 'cluster.clusterID') : null,
      version: health.cluster.version,
      desiredVersion: health.cluster.desiredVersion,
    },
    capturedAt,
    window: { from: from ?? seriesStart(series) ?? capturedAt, to: options.to ?? capturedAt },
    health: { ...redactedHealth, cluster: { ...redactedHealth.cluster, id: source.id } },
    series: { ...redactedSeries, clusterId: source.id },
    objects: evidenceObjects(snapshot, health).map(
      (o, i) => redactor.redact(o, `objects[${i}]`) as Record<string, unknown>,
    ),
    redaction: { rules: [...REDACTION_RULES], entries: redactor.entries },
  };
  await limits?.checkStore(creator, Buffer.byteLength(JSON.stringify(incident)), repository);
  await repository.create(incident);
  return { id, url: `/incidents/${id}` };
}
