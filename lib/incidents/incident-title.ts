import type { FindingDto } from '@/lib/api/dto';
import { sortFindings } from '@/lib/health/finding-order';

/** An incident's title when its creator gave none, and the finding it was taken from (null: none). */
export interface DefaultIncidentTitle {
  title: string;
  findingId: string | null;
}

/**
 * The default title of an incident: the worst finding's title (worst severity first, as the cluster page sorts
 * them), or "Incident on <cluster>" when nothing was found.
 */
export function defaultIncidentTitle(findings: readonly FindingDto[], clusterName: string): DefaultIncidentTitle {
  const worst = sortFindings(findings)[0];
  return worst ? { title: worst.title, findingId: worst.id } : { title: `Incident on ${clusterName}`, findingId: null };
}
