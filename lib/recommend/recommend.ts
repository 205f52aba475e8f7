/**
 * `oc adm upgrade recommend` as JSON: channel, upstream, every update target with oc's judgement, the alert
 * prechecks and the ClusterVersion conditions oc reads. Pure: ClusterVersion and alert evidence in, JSON out.
 */
import type { RecommendConditionDto, UpdateRecommendationsDto } from '@/lib/api/recommend-dto';
import { asString, dig, stringsAt } from '@/lib/health/shared/objects';
import { alertPrechecks, type AlertEvidence } from './alert-prechecks';
import { updateTargets } from './update-targets';
import { conditionOf } from '@/lib/k8s/conditions';

/** The ClusterVersion conditions oc reads, in the order it reads them. */
const CLUSTER_CONDITIONS = ['Failing', 'Progressing', 'RetrievedUpdates', 'Upgradeable'] as const;

function clusterConditions(clusterVersion: unknown): RecommendConditionDto[] {
  return CLUSTER_CONDITIONS.flatMap((type) => {
    const condition = conditionOf(clusterVersion, type);
    if (!condition) return [];
    return [{ type, status: condition.status, reason: condition.reason ?? '', message: condition.message ?? '' }];
  });
}

/** What `oc adm upgrade recommend` shows for this ClusterVersion and alert evidence. */
export function computeRecommendations(clusterVersion: unknown, alerts: AlertEvidence): UpdateRecommendationsDto {
  const conditions = clusterConditions(clusterVersion);
  const upgradeable = conditions.find((c) => c.type === 'Upgradeable' && c.status === 'False');
  const currentVersion = asString(dig(clusterVersion, 'status', 'desired', 'version')) ?? null;
  const channel = asString(dig(clusterVersion, 'spec', 'channel'));
  const upstream = asString(dig(clusterVersion, 'spec', 'upstream'));
  return {
    currentVersion,
    channel: channel || null,
    availableChannels: stringsAt(clusterVersion, 'status', 'desired', 'channels'),
    upstream: upstream || null,
    updates: updateTargets(clusterVersion, currentVersion, upgradeable),
    prechecks: alertPrechecks(alerts),
    ...(alerts.kind === 'error' ? { precheckError: alerts.message } : {}),
    clusterConditions: conditions,
  };
}
