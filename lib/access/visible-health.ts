/**
 * One visibility filter for everything that leaves the server (routes, the SSE stream, incidents): given a
 * cluster's health and the authorizer's answers for one viewer, what that viewer may see. A cluster is visible when
 * the viewer may read its ClusterVersion (a hosted cluster: its HostedCluster) or list anything its detectors read;
 * a finding when the viewer may read its subject and every object in its evidence; version and history only with
 * ClusterVersion access; a derived view (update progress, recommendations, rollback plan, hosted details) only when
 * the viewer may read every input it declares (derived-views.ts). What is withheld is said as data, in kinds only.
 * Pure: the server collects the answers (SubjectAccessReview) and calls these.
 */
import type { ClusterHealthDto, ClusterSeriesDto, ClusterSummaryDto, FindingDto } from '@/lib/api/dto';
import { summaryOf } from '@/lib/cluster/cluster-summary';
import type { Detector } from '@/lib/health/types';
import {
  CLUSTER_METRICS_ACCESS,
  CLUSTER_VERSION_ACCESS,
  READ_EVERYTHING,
  accessForDeclaredNeed,
  accessForNeed,
  accessForRef,
  describeKind,
  uniqueChecks,
  type AccessAnswers,
  type AccessCheck,
} from './access-check';
import { FINDINGS_OF_VIEW, derivedViewAccess, type DerivedViewId } from './derived-views';

/** What the filter needs to know of each detector. */
export type DetectorNeeds = Pick<Detector, 'id' | 'needs'>;

/** The check that guards version, history and update state: ClusterVersion, or the HostedCluster of a hosted view. */
export function versionAccess(health: ClusterHealthDto): AccessCheck {
  if (health.hosted) {
    return {
      verb: 'get',
      group: 'hypershift.openshift.io',
      resource: 'hostedclusters',
      namespace: health.hosted.namespace,
      name: health.hosted.name,
    };
  }
  return CLUSTER_VERSION_ACCESS;
}

/** Checks a finding needs, or undefined entries for evidence whose kind cannot be authorized. */
export function findingAccess(finding: FindingDto): (AccessCheck | undefined)[] {
  const refs = [finding.subject, ...finding.evidence.flatMap((item) => (item.ref ? [item.ref] : []))];
  return refs.map(accessForRef);
}

/** The checks that decide whether the viewer may read what a detector reads (and so see its samples). */
export function detectorAccess(detector: DetectorNeeds): AccessCheck[] {
  if (detector.needs.length === 0) return [CLUSTER_METRICS_ACCESS];
  return detector.needs.map(accessForDeclaredNeed);
}

/** Whether the viewer may read everything a detector reads (and so see its samples). */
export function detectorReadable(detector: DetectorNeeds, allowed: AccessAnswers): boolean {
  return detectorAccess(detector).every(allowed);
}

function sourceAccess(source: ClusterHealthDto['sources'][number]): AccessCheck {
  return accessForNeed({
    resource: source.resource as DetectorNeeds['needs'][number]['resource'],
    namespace: source.namespace,
  });
}

/** Every question whose answer the filter may need for this health (ask them all at once, then filter). */
export function healthAccess(health: ClusterHealthDto, detectors: readonly DetectorNeeds[]): AccessCheck[] {
  return uniqueChecks([
    ...READ_EVERYTHING,
    versionAccess(health),
    ...health.findings.flatMap((finding) => findingAccess(finding).filter((check): check is AccessCheck => !!check)),
    ...health.sources.map(sourceAccess),
    ...detectors.flatMap(detectorAccess),
    ...Object.values(derivedViewAccess(health)).flat(),
  ]);
}

function readsEverything(allowed: AccessAnswers): boolean {
  return READ_EVERYTHING.every(allowed);
}

/** True when the viewer may see this cluster at all. */
export function clusterVisible(
  health: ClusterHealthDto,
  detectors: readonly DetectorNeeds[],
  allowed: AccessAnswers,
): boolean {
  return (
    readsEverything(allowed) ||
    allowed(versionAccess(health)) ||
    detectors.some((detector) => detectorAccess(detector).some(allowed))
  );
}

function findingVisible(finding: FindingDto, allowed: AccessAnswers): boolean {
  return findingAccess(finding).every((check) => !!check && allowed(check));
}

/** The access each derived view of this health lacks for this viewer, worded by kind; views shown are absent. */
export function hiddenViews(
  health: ClusterHealthDto,
  allowed: AccessAnswers,
): Partial<Record<DerivedViewId, string[]>> {
  const version = versionAccess(health);
  const hidden = Object.entries(derivedViewAccess(health)).flatMap(([view, checks]) => {
    // Every derived view states version facts (targets, current version): it also needs the version check.
    const lacking = uniqueChecks([version, ...checks]).filter((check) => !allowed(check));
    return lacking.length ? [[view, [...new Set(lacking.map(describeKind))]] as const] : [];
  });
  return Object.fromEntries(hidden);
}

/**
 * The health as this viewer may see it. Hidden findings are counted; derived views the viewer may not read every
 * input of are withheld and listed with the access each lacks; `missing` sums it up. Everything is worded by
 * kind (`list nodes`), never naming an object, so nothing of what is hidden is sent.
 */
export function visibleHealth(health: ClusterHealthDto, allowed: AccessAnswers): ClusterHealthDto {
  if (readsEverything(allowed)) return health;
  const versionOk = allowed(versionAccess(health));
  const views = hiddenViews(health, allowed);
  const findings = health.findings.filter((finding) => {
    const view = FINDINGS_OF_VIEW[finding.detector];
    return findingVisible(finding, allowed) && !(view && views[view]);
  });
  const missing = [
    ...new Set([
      ...(versionOk ? [] : [describeKind(versionAccess(health))]),
      ...health.findings
        .flatMap((finding) => findingAccess(finding))
        .filter((check): check is AccessCheck => !!check && !allowed(check))
        .map(describeKind),
      ...Object.values(views).flat(),
    ]),
  ];
  const { cluster } = health;
  return {
    cluster: versionOk ? cluster : { ...cluster, version: null, desiredVersion: null, channel: null, history: [] },
    findings,
    updateProgress: views.updateProgress ? null : health.updateProgress,
    // The state is built from the progress (pools, nodes, operators): shown with it, else unknown by access.
    ...(versionOk && !views.updateProgress && health.updateState ? { updateState: health.updateState } : {}),
    updateRecommendations: views.updateRecommendations ? null : health.updateRecommendations,
    sources: health.sources.filter((source) => allowed(sourceAccess(source))),
    // Which tier runs names no object: shown as it is.
    ...(health.activity ? { activity: health.activity } : {}),
    ...(health.hosted && !views.hosted ? { hosted: health.hosted } : {}),
    access: {
      hiddenFindings: health.findings.length - findings.length,
      clusterVersion: versionOk,
      missing,
      ...(Object.keys(views).length ? { hiddenViews: views } : {}),
    },
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
export function visibleSeries(
  series: ClusterSeriesDto,
  detectors: readonly DetectorNeeds[],
  allowed: AccessAnswers,
): ClusterSeriesDto {
  if (readsEverything(allowed)) return series;
  const readable = new Set(
    detectors.filter((detector) => detectorReadable(detector, allowed)).map((detector) => detector.id as string),
  );
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
    ...series.transitions
      .map((transition) => accessForRef(transition.ref))
      .filter((check): check is AccessCheck => !!check),
  ]);
}
