/**
 * An incident as one reader may see it: the frozen health, series and evidence objects through the same filter as
 * live data, so a shared link never shows a reader more than their RBAC on that cluster allows.
 */
import type { IncidentDto } from '@/lib/api/incident-dto';
import { refOfJson } from '@/lib/k8s/refs';
import { defaultIncidentTitle, type DefaultIncidentTitle } from '@/lib/incidents/incident-title';
import { accessForRef, uniqueChecks, type AccessAnswers, type AccessCheck } from './access-check';
import {
  healthAccess,
  seriesAccess,
  versionAccess,
  visibleHealth,
  visibleSeries,
  type DetectorNeeds,
} from './visible-health';

function titleFrom(fallback: DefaultIncidentTitle): Pick<IncidentDto, 'title' | 'titleFindingId'> {
  return { title: fallback.title, titleFindingId: fallback.findingId };
}

/** Every question the incident filter may need answered. */
export function incidentAccess(incident: IncidentDto, detectors: readonly DetectorNeeds[]): AccessCheck[] {
  return uniqueChecks([
    ...healthAccess(incident.health, detectors),
    ...seriesAccess(incident.series, detectors),
    ...incident.objects
      .map(refOfJson)
      .flatMap((ref) => (ref ? [accessForRef(ref)] : []))
      .filter((check): check is AccessCheck => !!check),
  ]);
}

/** The incident filtered for one reader (identity and version facts need ClusterVersion access, like live data). */
export function visibleIncident(
  incident: IncidentDto,
  detectors: readonly DetectorNeeds[],
  allowed: AccessAnswers,
): IncidentDto {
  const health = visibleHealth(incident.health, allowed);
  if (!health.access) return incident;
  const versionOk = allowed(versionAccess(incident.health));
  // A title taken from a finding this reader cannot see would tell them what it was.
  const titleHidden =
    incident.titleFindingId !== null && !health.findings.some((f) => f.id === incident.titleFindingId);
  return {
    ...incident,
    ...(titleHidden ? titleFrom(defaultIncidentTitle(health.findings, incident.cluster.name)) : {}),
    cluster: versionOk
      ? incident.cluster
      : { ...incident.cluster, clusterID: null, version: null, desiredVersion: null },
    health,
    series: visibleSeries(incident.series, detectors, allowed),
    objects: incident.objects.filter((object) => {
      const ref = refOfJson(object);
      const check = ref && accessForRef(ref);
      return !!check && allowed(check);
    }),
  };
}
