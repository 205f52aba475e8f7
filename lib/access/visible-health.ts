/**
 * One visibility filter for everything that leaves the server (routes, the SSE stream, incidents): given a
 * cluster's health and the authorizer's answers for one viewer, what that viewer may see. A cluster is visible when
 * the viewer may read its ClusterVersion (a hosted cluster: its HostedCluster) or list anything its detectors read;
 * a finding when the viewer may read its subject and every object in its evidence; version, history and update state
 * only with ClusterVersion access. Pure: the server collects the answers (SubjectAccessReview) and calls these.
 */
import type { ClusterHealthDto, ClusterSeriesDto, ClusterSummaryDto, FindingDto } from '@/lib/api/dto';
import { summaryOf } from '@/lib/cluster/join-hosted';
import type { Detector } from '@/lib/health/types';
import {
  CLUSTER_VERSION_ACCESS, READ_EVERYTHING, accessForNeed, accessForRef, describeAccess, uniqueChecks, type AccessAnswers, type AccessCheck,
} from './access-check';

/** What the filter needs to know of each detector. */
export type DetectorNeeds = Pick<Detector, 'id' | 'needs'>;

/** The check that guards version, history and update state: ClusterVersion, or the HostedCluster of a hosted view. */
export function versionAccess(health: ClusterHealthDto): AccessCheck {
  if (health.hosted) {
    return { verb: 'get', group: 'hypershift.openshift.io', resource: 'hostedclusters', namespace: health.hosted.namespace, name: health.hosted.name };
  }
  return CLUSTER_VERSION_ACCESS;
}

/** Checks a finding needs, or undefined entries for evidence whose kind cannot be authorized. */
export function findingAccess(finding: FindingDto): (AccessCheck | undefined)[] {
  const refs = [finding.subject, ...finding.evidence.flatMap((item) => (item.ref ? [item.ref] : []))];
  return refs.map(accessForRef);
}

/** What cluster-wide metrics (a detector without watched resources, a Prometheus chart) need: listing every pod. */
export const CLUSTER_METRICS_ACCESS: AccessCheck = { verb: 'list', group: '', resource: 'pods' };

/** The checks that decide whether the viewer may read what a detector reads (and so see its samples). */
export function detectorAccess(detector: DetectorNeeds): AccessCheck[] {
  if (detector.needs.length === 0) return [CLUSTER_METRICS_ACCESS];
  return detector.needs.map((need) => (need.name ? { ...accessForNeed(need), verb: 'get' as const, name: need.name } : accessForNeed(need)));
}

/** Whether the viewer may read everything a detector reads (and so see its samples). */
export function detectorReadable(detector: DetectorNeeds, allowed: AccessAnswers): boolean {
  return detectorAccess(detector).every(allowed);
}

function sourceAccess(source: ClusterHealthDto['sources'][number]): AccessCheck {
  return accessForNeed({ resource: source.resource as DetectorNeeds['needs'][number]['resource'], namespace: source.namespace });
}

/** Every question whose answer the filter may need for this health (ask them all at once, then filter). */
export function healthAccess(health: ClusterHealthDto, detectors: readonly DetectorNeeds[]): AccessCheck[] {
  return uniqueChecks([
    ...READ_EVERYTHING,
    versionAccess(health),
    ...health.findings.flatMap((finding) => findingAccess(finding).filter((check): check is AccessCheck => !!check)),
    ...health.sources.map(sourceAccess),
    ...detectors.flatMap(detectorAccess),
  ]);
}

function readsEverything(allowed: AccessAnswers): boolean {
  return READ_EVERYTHING.every(allowed);
}

/** True when the viewer may see this cluster at all. */
export function clusterVisible(health: ClusterHealthDto, detectors: readonly DetectorNeeds[], allowed: AccessAnswers): boolean {
  return readsEverything(allowed) || allowed(versionAccess(health)) || detectors.some((detector) => detectorAccess(detector).some(allowed));
}

function findingVisible(finding: FindingDto, allowed: AccessAnswers): boolean {
  return findingAccess(finding).every((check) => !!check && allowed(check));
}

/**
 * The health as this viewer may see it. Hidden findings are counted and the missing permissions named, so the page
 * can say what access would show them; nothing of a hidden finding is sent.
 */
export function visibleHealth(health: ClusterHealthDto, allowed: AccessAnswers): ClusterHealthDto {
  if (readsEverything(allowed)) return health;
  const versionOk = allowed(versionAccess(health));
  const findings = health.findings.filter((finding) => findingVisible(finding, allowed));
  const missing = uniqueChecks([
    ...(versionOk ? [] : [versionAccess(health)]),
    ...health.findings.flatMap((finding) => findingAccess(finding).filter((check): check is AccessCheck => !!check && !allowed(check))),
  ]).map(describeAccess);
  const { cluster } = health;
  return {
    cluster: versionOk ? cluster : { ...cluster, version: null, desiredVersion: null, channel: null, history: [] },
    findings,
    updateProgress: versionOk ? health.updateProgress : null,
    updateRecommendations: versionOk ? health.updateRecommendations : null,
    sources: health.sources.filter((source) => allowed(sourceAccess(source))),
    ...(health.hosted && versionOk ? { hosted: health.hosted } : {}),
    access: { hiddenFindings: health.findings.length - findings.length, clusterVersion: versionOk, missing },
  };
}

/** The fleet row of the filtered health (counts and worst finding of what the viewer sees). */
export function visibleSummary(health: ClusterHealthDto, allowed: AccessAnswers): ClusterSummaryDto {
  return summaryOf(visibleHealth(health, allowed));
}

/**
 * Chart series the viewer may see: a detector's samples only when the viewer may read everything that detector
 * reads; a condition transition only when the viewer may read its object.
 */
export function visibleSeries(series: ClusterSeriesDto, detectors: readonly DetectorNeeds[], allowed: AccessAnswers): ClusterSeriesDto {
  if (readsEverything(allowed)) return series;
  const readable = new Set(detectors.filter((detector) => detectorReadable(detector, allowed)).map((detector) => detector.id as string));
  return {
    ...series,
    samples: Object.fromEntries(Object.entries(series.samples).filter(([detector]) => readable.has(detector))),
    transitions: series.transitions.filter((transition) => {
      const check = accessForRef(transition.ref);
      return !!check && allowed(check);
    }),
  };
}

/** Checks the series filter needs. */
export function seriesAccess(series: ClusterSeriesDto, detectors: readonly DetectorNeeds[]): AccessCheck[] {
  return uniqueChecks([
    ...READ_EVERYTHING,
    ...detectors.flatMap(detectorAccess),
    ...series.transitions.map((transition) => accessForRef(transition.ref)).filter((check): check is AccessCheck => !!check),
  ]);
}
