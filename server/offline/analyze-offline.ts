import 'server-only';
import { basename } from 'node:path';
import type { ClusterHealthDto, SourceStateDto } from '@/lib/api/dto';
import { DEFAULT_HEALTH_CONFIG, type HealthConfig } from '@/lib/health/types';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { hostedClusterId, splitSnapshot } from '@/lib/cluster/hosted-views';
import { DETECTORS, requiredLogs } from '@/lib/health/registry';
import { asObject, asString } from '@/lib/health/shared/objects';
import type { AlertEvidence } from '@/lib/recommend/alert-prechecks';
import type { OfflineSnapshot } from './collector';
import { readOffline, readOfflineStream, type ReadOfflineOptions } from './read-offline';

/** Options of {@link analyzeOffline}. */
export interface AnalyzeOfflineOptions {
  /** Evaluation clock (epoch ms); default: the must-gather's `timestamp`, else the newest object time. */
  now?: number;
  /** Cluster id and display name; default: the infrastructure name, else the first input's file name. */
  id?: string;
  name?: string;
  config?: HealthConfig;
  limits?: ReadOfflineOptions['limits'];
}

/** The served health of an offline cluster, plus what was read to compute it. */
export interface OfflineAnalysis {
  health: ClusterHealthDto;
  /**
   * One health per HostedCluster (or group of NodePools) in the input, as its management cluster shows it; the
   * input's own health then covers only what is outside their control-plane namespaces.
   */
  hosted: ClusterHealthDto[];
  offline: OfflineSnapshot;
}

function defaultName(offline: OfflineSnapshot, input: string): string {
  const infra = offline.snapshot.objects.infrastructures?.find((object) => object.metadata.name === 'cluster');
  const infraName = asString(asObject(infra?.status)?.infrastructureName);
  return infraName ?? basename(input.replace(/[\\/]+$/, '')).replace(/\.(tar\.gz|tgz|tar|ya?ml|json)$/i, '');
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'offline'
  );
}

/** One `synced` source per resource read: offline data is complete as of the clock, with nothing pending. */
function sourcesOf(offline: OfflineSnapshot): SourceStateDto[] {
  const at = new Date(offline.now).toISOString();
  return offline.resources.map((resource) => ({ resource, status: 'synced' as const, since: at, lastSyncAt: at }));
}

/**
 * Alerts for the recommend prechecks. Without an alerts file: `recommended/Alert=Unknown`, `NoTestData`, in oc's own
 * words for its file mode when the input is a `<name>-cv.yaml` (naming the `<name>-alerts.json` oc looks for).
 */
function alertEvidence(offline: OfflineSnapshot, input: string): AlertEvidence {
  if (offline.alertsRead) return { kind: 'alerts', alerts: offline.alerts };
  if (input.endsWith('-cv.yaml')) {
    return {
      kind: 'missing',
      reason: 'NoTestData',
      message: `This --mock-clusterversion run did not have alert data available at ${input.replace(/-cv\.yaml$/, '-alerts.json')}`,
    };
  }
  return {
    kind: 'missing',
    reason: 'NoTestData',
    message: `${input} has no alert data (no monitoring/alerts.json or *alerts.json file)`,
  };
}

function assess(offline: OfflineSnapshot, defaultNameOf: string, options: AnalyzeOfflineOptions): OfflineAnalysis {
  const name = options.name ?? defaultName(offline, defaultNameOf);
  const context = { now: offline.now, config: options.config ?? DEFAULT_HEALTH_CONFIG };
  const id = options.id ?? slug(name);
  const sources = sourcesOf(offline);
  // Alerts read from the inputs feed the update progress, as `oc adm upgrade status` uses them.
  const split = splitSnapshot(
    offline.alerts.length > 0 ? { ...offline.snapshot, alerts: offline.alerts } : offline.snapshot,
  );
  const { health } = assessCluster({
    id,
    name,
    snapshot: split.own,
    context,
    sources,
    hostedClusterCount: split.hosted.length,
    alertEvidence: alertEvidence(offline, defaultNameOf),
    origin: 'must-gather',
  });
  const hosted = split.hosted.map(
    (part) =>
      assessCluster({
        id: hostedClusterId(id, part.namespace, part.name),
        name: part.name,
        snapshot: part.snapshot,
        context,
        sources,
        role: 'hosted',
        managedBy: id,
        origin: 'must-gather',
      }).health,
  );
  return { health, hosted, offline };
}

/**
 * Reads offline inputs (see {@link readOffline}) and assesses them exactly as the live engine assesses a cluster.
 * Alerts found in the inputs feed the update progress, as `oc adm upgrade status` uses them.
 */
export async function analyzeOffline(
  paths: readonly string[],
  options: AnalyzeOfflineOptions = {},
): Promise<OfflineAnalysis> {
  const offline = await readOffline(paths, {
    now: options.now,
    limits: options.limits,
    logNeeds: requiredLogs(DETECTORS),
  });
  return assess(offline, paths[0], options);
}

/** {@link analyzeOffline} of a `.tar` / `.tar.gz` byte stream (an upload); `label` is its file name. */
export async function analyzeOfflineStream(
  stream: AsyncIterable<Buffer | Uint8Array>,
  label: string,
  options: AnalyzeOfflineOptions = {},
): Promise<OfflineAnalysis> {
  const offline = await readOfflineStream(stream, label, {
    now: options.now,
    limits: options.limits,
    logNeeds: requiredLogs(DETECTORS),
  });
  return assess(offline, label, options);
}
