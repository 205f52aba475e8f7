import 'server-only';
import type { Alert } from '@/lib/health/update-progress/types';
import { asArray, asObject, asString } from '@/lib/health/shared/objects';

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(asObject(value) ?? {})) if (typeof item === 'string') out[key] = item;
  return out;
}

function toAlert(value: unknown): Alert | undefined {
  const raw = asObject(value);
  if (!raw) return undefined;
  const labels = stringMap(raw.labels);
  const name = labels.alertname ?? asString(raw.name);
  if (!name) return undefined;
  return {
    name,
    state: asString(raw.state) ?? 'firing',
    severity: labels.severity ?? '',
    startsAt: asString(raw.activeAt) ?? asString(raw.startsAt) ?? '',
    labels,
    annotations: stringMap(raw.annotations),
  };
}

/**
 * Alerts from a Prometheus API answer saved to a file: `/api/v1/alerts` (what `oc adm inspect-alerts` prints),
 * `/api/v1/rules` (a must-gather's `monitoring/alerts.json`, alerts nested in rule groups), or a bare array.
 * Anything else gives no alerts.
 */
export function parseAlerts(document: unknown): Alert[] {
  const data = asObject(asObject(document)?.data);
  const raw: unknown[] = Array.isArray(document) ? document : [...asArray(data?.alerts)];
  for (const group of asArray(data?.groups)) {
    for (const rule of asArray(asObject(group)?.rules)) raw.push(...asArray(asObject(rule)?.alerts));
  }
  return raw.map(toAlert).filter((alert): alert is Alert => alert !== undefined);
}
