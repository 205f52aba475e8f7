import 'server-only';
import { RESOURCES, resourceForKind, type ResourceName } from '@/lib/k8s/resources';
import { DETECTORS, requiredResources } from '@/lib/health/registry';
import type { KubeObject } from '@/lib/k8s/types';
import type { ConditionTransition, LogExcerpt, LogNeed, Snapshot } from '@/lib/health/types';
import type { Alert } from '@/lib/health/update-progress/types';
import { asArray, asObject, asString } from '@/lib/health/shared/objects';
import { projectObject } from '@/server/watch/projections';
import { compileLabelSelector } from '@/lib/k8s/selectors';
import { parseAlerts } from '@/server/metrics/alerts';
import { newestTime, synthesizedTransitions, historyTransitions } from './object-times';
import { OfflineInputError } from './errors';

const MAX_PODS_PER_NEED = 3;

/** Where the lines of one container log come from: already tailed (archives) or a file read on demand. */
export type LogSource = { lines: string[] } | { read: (tailLines: number) => Promise<string[]> };

/** What was read from the offline inputs, ready for the detectors. */
export interface OfflineSnapshot {
  snapshot: Snapshot;
  /** Evaluation clock (epoch ms) and where it came from. */
  now: number;
  nowSource: 'option' | 'timestamp' | 'objects' | 'clock';
  alerts: Alert[];
  /** Whether any alerts file was read (an empty one means "nothing firing", no file means "unknown"). */
  alertsRead: boolean;
  /** Resources with at least one object, in RESOURCES order. */
  resources: ResourceName[];
  /** Files skipped because they did not parse. */
  warnings: string[];
  stats: { entries: number; parsedBytes: number; objects: number };
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

function objectKey(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

function newer(candidate: KubeObject, existing: KubeObject): boolean {
  const a = Number(candidate.metadata.resourceVersion);
  const b = Number(existing.metadata.resourceVersion);
  return Number.isFinite(a) && Number.isFinite(b) ? a >= b : true;
}

/**
 * Accumulates what the readers find (objects, ClusterVersion history, log sources, timestamps, alerts) from one or
 * several inputs into one snapshot. Objects are bucketed by their own kind and apiVersion group (only resources the
 * product knows) and stored as the live watch layer stores them.
 */
export class OfflineCollector {
  private readonly objects = new Map<ResourceName, Map<string, KubeObject>>();
  private readonly history: { at: number; object: KubeObject }[] = [];
  private readonly logs = new Map<string, { current?: LogSource; previous?: LogSource }>();
  private readonly timestamps: number[] = [];
  private readonly alerts: Alert[] = [];
  private alertsRead = false;
  private readonly warnings: string[] = [];
  private newestObject = Number.NEGATIVE_INFINITY;
  private entries = 0;
  private parsedBytes = 0;

  private kept = 0;

  /** `maxObjects`: most distinct objects (and history versions) kept; one more is a `limit` error. */
  constructor(
    private readonly logNeeds: readonly LogNeed[],
    private readonly maxObjects = Number.POSITIVE_INFINITY,
  ) {}

  private keepOne(): void {
    if (++this.kept > this.maxObjects) {
      const message = `more than ${this.maxObjects} objects to analyze; the analysis would not fit in memory`;
      throw new OfflineInputError(message, 'limit');
    }
  }

  /** Counts an entry looked at (for stats and the entry cap). */
  countEntry(): number {
    return ++this.entries;
  }

  /** Counts bytes handed to the parser; returns the running total. */
  countParsed(bytes: number): number {
    this.parsedBytes += bytes;
    return this.parsedBytes;
  }

  warn(message: string): void {
    if (this.warnings.length < 100) this.warnings.push(message);
  }

  /** Adds parsed documents: objects and `List`s of objects; other documents are ignored. */
  addDocuments(documents: unknown[]): void {
    for (const document of documents) this.addDocument(document);
  }

  /** Adds one historical version of an object, observed at `at` (epoch ms). */
  addHistory(documents: unknown[], at: number): void {
    for (const document of documents) {
      const object = this.asKnownObject(document);
      if (object) {
        this.keepOne();
        this.history.push({ at, object });
        this.newestObject = Math.max(this.newestObject, at);
      }
    }
  }

  addAlerts(documents: unknown[]): void {
    this.alertsRead = true;
    for (const document of documents) this.alerts.push(...parseAlerts(document));
  }

  /** A must-gather `timestamp` file: one Go time per line (`2021-09-13 15:31:14.63 +0000 UTC m=+0.83`). */
  addTimestampFile(text: string): void {
    for (const line of text.split('\n')) {
      const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) ([+-]\d{2})(\d{2})/.exec(line.trim());
      const ms = m ? Date.parse(`${m[1]}T${m[2].slice(0, 12)}${m[3]}:${m[4]}`) : NaN;
      if (Number.isFinite(ms)) this.timestamps.push(ms);
    }
  }

  /** Whether a container log in `namespace` may be needed (labels are only known once every pod is read). */
  wantsLog(namespace: string, container: string): number | undefined {
    const needs = this.logNeeds.filter((need) => need.namespace === namespace && need.container === container);
    return needs.length ? Math.max(...needs.map((need) => need.tailLines)) : undefined;
  }

  addLog(namespace: string, pod: string, container: string, previous: boolean, source: LogSource): void {
    const key = `${namespace}/${pod}/${container}`;
    const entry = this.logs.get(key) ?? {};
    entry[previous ? 'previous' : 'current'] = source;
    this.logs.set(key, entry);
  }

  /** Builds the snapshot; `now` overrides the clock, else the timestamp file, else the newest object time. */
  async build(now?: number): Promise<OfflineSnapshot> {
    const objects: Snapshot['objects'] = {};
    const resources: ResourceName[] = [];
    let count = 0;
    for (const resource of Object.keys(RESOURCES) as ResourceName[]) {
      const bucket = this.objects.get(resource);
      if (!bucket || bucket.size === 0) continue;
      objects[resource] = [...bucket.values()];
      resources.push(resource);
      count += bucket.size;
    }
    const transitions = this.transitions(objects);
    const snapshot: Snapshot = { objects, transitions, logs: await this.readLogs(objects.pods ?? []), probes: [] };
    const [clock, nowSource] = this.clock(now);
    return {
      snapshot,
      now: clock,
      nowSource,
      alerts: this.alerts,
      alertsRead: this.alertsRead,
      resources,
      warnings: this.warnings,
      stats: { entries: this.entries, parsedBytes: this.parsedBytes, objects: count },
    };
  }

  private clock(now: number | undefined): [number, OfflineSnapshot['nowSource']] {
    if (now !== undefined) return [now, 'option'];
    if (this.timestamps.length) return [Math.max(...this.timestamps), 'timestamp'];
    if (Number.isFinite(this.newestObject)) return [this.newestObject, 'objects'];
    return [Date.now(), 'clock'];
  }

  private addDocument(document: unknown): void {
    const raw = asObject(document);
    if (!raw) return;
    const kind = asString(raw.kind);
    if (Array.isArray(raw.items) && (!kind || kind.endsWith('List'))) {
      const itemKind = kind && kind !== 'List' ? kind.slice(0, -4) : undefined;
      const apiVersion = asString(raw.apiVersion);
      for (const item of asArray(raw.items)) {
        const itemObject = asObject(item);
        if (!itemObject) continue;
        this.addObject({ kind: itemKind, apiVersion, ...itemObject });
      }
      return;
    }
    this.addObject(raw);
  }

  private asKnownObject(document: unknown): KubeObject | undefined {
    const raw = asObject(document);
    const kind = asString(raw?.kind);
    const apiVersion = asString(raw?.apiVersion);
    const metadata = asObject(raw?.metadata);
    if (!raw || !kind || !apiVersion || typeof metadata?.name !== 'string') return undefined;
    const resource = resourceForKind(kind);
    if (!resource || RESOURCES[resource].group !== groupOf(apiVersion)) return undefined;
    return raw as unknown as KubeObject;
  }

  private addObject(raw: Record<string, unknown>): void {
    const object = this.asKnownObject(raw);
    if (!object || !wantedByName(object)) return;
    const resource = resourceForKind(object.kind)!;
    this.newestObject = Math.max(this.newestObject, newestTime(object));
    // Parser strings are slices of the whole source text, and keeping one (a pod name) would keep the text alive:
    // pods and events come out of their projection with interned copies of their own; other kinds are copied here.
    const slim = projectObject(resource, object);
    const projected =
      resource === 'pods' || resource === 'events' ? slim : (JSON.parse(JSON.stringify(slim)) as KubeObject);
    const bucket = this.objects.get(resource) ?? new Map<string, KubeObject>();
    const key = objectKey(projected);
    const existing = bucket.get(key);
    if (!existing) this.keepOne();
    if (!existing || newer(projected, existing)) bucket.set(key, projected);
    this.objects.set(resource, bucket);
  }

  private transitions(objects: Snapshot['objects']): ConditionTransition[] {
    const fromHistory = historyTransitions(this.history);
    const withHistory = new Set(this.history.map(({ object }) => `${object.kind}/${objectKey(object)}`));
    const synthesized = Object.values(objects).flatMap((list) =>
      (list ?? [])
        .filter((object) => !withHistory.has(`${object.kind}/${objectKey(object)}`))
        .flatMap(synthesizedTransitions),
    );
    return [...fromHistory, ...synthesized].sort((a, b) => a.at.localeCompare(b.at));
  }

  private async readLogs(pods: readonly KubeObject[]): Promise<LogExcerpt[]> {
    const out: LogExcerpt[] = [];
    for (const need of this.logNeeds) {
      let matcher: ((object: KubeObject) => boolean) | undefined;
      try {
        matcher = compileLabelSelector(need.labelSelector);
      } catch {
        this.warn(`log need with an invalid selector skipped: ${need.labelSelector}`);
        continue;
      }
      const selected = pods
        .filter((pod) => pod.metadata.namespace === need.namespace && (!matcher || matcher(pod)))
        .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
        .slice(0, MAX_PODS_PER_NEED);
      for (const pod of selected) {
        const lines = await this.logLines(`${need.namespace}/${pod.metadata.name}/${need.container}`, need.tailLines);
        if (lines.length === 0) continue;
        const ref = { apiVersion: 'v1', kind: 'Pod', namespace: need.namespace, name: pod.metadata.name };
        out.push({ ref, container: need.container, lines });
      }
    }
    return out;
  }

  /** The current log's tail; the previous instance's when the current one is empty (e.g. just restarted). */
  private async logLines(key: string, tailLines: number): Promise<string[]> {
    const entry = this.logs.get(key);
    for (const source of [entry?.current, entry?.previous]) {
      if (!source) continue;
      const lines = 'lines' in source ? source.lines : await source.read(tailLines);
      if (lines.length) return lines.slice(-tailLines);
    }
    return [];
  }
}

/** Resources the detectors read only by name (e.g. the `feature-gate` ConfigMaps): the names they read. */
const NAMED_ONLY: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const needs = requiredResources(DETECTORS);
  const out = new Map<string, Set<string>>();
  for (const need of needs) {
    if (need.name === undefined || needs.some((other) => other.resource === need.resource && other.name === undefined))
      continue;
    out.set(need.resource, (out.get(need.resource) ?? new Set<string>()).add(need.name));
  }
  return out;
})();

/** Every ConfigMap of a must-gather is of no use: keep objects of name-narrowed resources only when named so. */
function wantedByName(object: KubeObject): boolean {
  const names = NAMED_ONLY.get(resourceForKind(object.kind) ?? '');
  return !names || names.has(object.metadata.name);
}
