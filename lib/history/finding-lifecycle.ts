/**
 * The lifecycle of a finding as the history stores it: opened, severity changed, evidence changed (a digest of it),
 * resolved. Pure: the server reads the stored state, asks {@link nextFindingState} what to write, and writes it with
 * a compare-and-set on the state's revision, so two replicas evaluating one cluster write each event once.
 */
import type { FindingDto, ObjectRefDto, SeverityDto } from '@/lib/api/dto';

/** What the history records of one event. */
export type FindingEventKind = 'opened' | 'severity' | 'evidence' | 'resolved';

/** The stored state of one finding of one cluster (one row per finding, updated with compare-and-set). */
export interface FindingState {
  clusterId: string;
  findingId: string;
  detector: string;
  subject: ObjectRefDto;
  title: string;
  severity: SeverityDto;
  digest: string;
  /** Every object the finding was built from (subject and evidence): what a viewer must read to see it. */
  refs: ObjectRefDto[];
  /** Epoch ms of the current (or last) episode's opening. */
  openedAt: number;
  /** Epoch ms of the episode's resolution; null while open. */
  resolvedAt: number | null;
  /** Epoch ms of the last evidence-changed event (or the opening). */
  evidenceAt: number;
  /** Bumped by every write; the compare-and-set key. */
  revision: number;
}

/** One stored lifecycle event; `openedAt` names the episode it belongs to. */
export interface FindingEvent {
  clusterId: string;
  findingId: string;
  openedAt: number;
  kind: FindingEventKind;
  at: number;
  detector: string;
  subject: ObjectRefDto;
  title: string;
  severity: SeverityDto;
  digest: string;
  refs: ObjectRefDto[];
}

/** A finding as one evaluation saw it, reduced to what the history keeps. */
export interface FindingObservation {
  findingId: string;
  detector: string;
  subject: ObjectRefDto;
  title: string;
  severity: SeverityDto;
  digest: string;
  refs: ObjectRefDto[];
  /** The detector's onset (epoch ms), when it knows one. */
  since?: number;
}

/**
 * Evidence that changes every evaluation (a metric's value, an age) would write an event a tick; an evidence change
 * is recorded at most this often per finding, the newest digest winning.
 */
export const EVIDENCE_MIN_INTERVAL_MS = 60_000;

/** FNV-1a, 32 bits, as 8 hex digits: a digest small enough to store per event, the same in the browser and server. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function refKey(ref: ObjectRefDto): string {
  return `${ref.apiVersion ?? ''}|${ref.kind}|${ref.namespace ?? ''}|${ref.name}`;
}

/** The objects a finding is built from, each once, in a stable order. */
export function findingRefs(finding: Pick<FindingDto, 'subject' | 'evidence'>): ObjectRefDto[] {
  const byKey = new Map<string, ObjectRefDto>();
  for (const ref of [finding.subject, ...finding.evidence.flatMap((item) => (item.ref ? [item.ref] : []))]) {
    byKey.set(refKey(ref), { kind: ref.kind, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ref]) => ref);
}

/** Digest of a finding's evidence and summary: what it says, not when it was looked at. */
export function evidenceDigest(finding: Pick<FindingDto, 'summary' | 'evidence'>): string {
  return fnv1a(JSON.stringify([finding.summary, finding.evidence]));
}

/** A finding reduced to an observation. */
export function observeFinding(finding: FindingDto): FindingObservation {
  const since = finding.since ? Date.parse(finding.since) : NaN;
  return {
    findingId: finding.id,
    detector: finding.detector,
    subject: finding.subject,
    title: finding.title,
    severity: finding.severity,
    digest: evidenceDigest(finding),
    refs: findingRefs(finding),
    ...(Number.isFinite(since) ? { since } : {}),
  };
}

/** The state and the event to write, or undefined when nothing changed. */
export interface FindingTransition {
  state: FindingState;
  event: FindingEvent;
}

function eventOf(state: FindingState, kind: FindingEventKind, at: number): FindingEvent {
  const { clusterId, findingId, openedAt, detector, subject, title, severity, digest, refs } = state;
  return { clusterId, findingId, openedAt, kind, at, detector, subject, title, severity, digest, refs };
}

/**
 * What to write when `observed` (undefined: the finding is absent from a complete evaluation) meets the `stored`
 * state at `now` (epoch ms). A new episode opens at the detector's onset when it has one (never after `now`, never
 * before the previous episode's resolution), else at `now`.
 */
export function nextFindingState(
  clusterId: string,
  stored: FindingState | undefined,
  observed: FindingObservation | undefined,
  now: number,
): FindingTransition | undefined {
  const open = stored !== undefined && stored.resolvedAt === null;
  if (!observed) {
    if (!open) return undefined;
    const state: FindingState = {
      ...stored,
      resolvedAt: Math.max(now, stored.openedAt),
      revision: stored.revision + 1,
    };
    return { state, event: eventOf(state, 'resolved', state.resolvedAt!) };
  }
  const { since, ...seen } = observed;
  if (!open) {
    // A resolution after `now` means the clock went back (a replayed simulation): that floor does not hold.
    const floor = stored?.resolvedAt != null && stored.resolvedAt <= now ? stored.resolvedAt : -Infinity;
    const openedAt = Math.max(Math.min(since ?? now, now), floor);
    const state: FindingState = {
      clusterId,
      ...seen,
      openedAt,
      resolvedAt: null,
      evidenceAt: openedAt,
      revision: (stored?.revision ?? 0) + 1,
    };
    return { state, event: eventOf(state, 'opened', openedAt) };
  }
  if (observed.severity !== stored.severity) {
    const state: FindingState = { ...stored, ...seen, evidenceAt: now, revision: stored.revision + 1 };
    return { state, event: eventOf(state, 'severity', now) };
  }
  if (observed.digest !== stored.digest && now - stored.evidenceAt >= EVIDENCE_MIN_INTERVAL_MS) {
    const state: FindingState = { ...stored, ...seen, evidenceAt: now, revision: stored.revision + 1 };
    return { state, event: eventOf(state, 'evidence', now) };
  }
  return undefined;
}
