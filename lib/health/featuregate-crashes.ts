/**
 * Finds consumers that crash because the FeatureGate status lacks their version: library-go's
 * `simple_featuregate_reader.go` fails with `missing desired version "X" in featuregates.config.openshift.io/cluster`,
 * which ends up in the container's termination message, its waiting message, or its log.
 */
import type { ObjectRef } from '@/lib/k8s/types';
import type { Snapshot } from '@/lib/health/types';
import { asArray, asObject, asString, dig, objectsOf, refOf, timeOf } from '@/lib/health/objects';

/** Matches the library-go error and captures the missing version. */
export const MISSING_VERSION_RE = /missing desired version "([^"]+)" in featuregates\.config\.openshift\.io\/cluster/;

/** One container that reported the missing-version error. */
export interface FeatureGateCrash {
  version: string;
  pod: ObjectRef;
  container: string;
  /** The message or log line that names the version. */
  line: string;
  /** Whether the container is in CrashLoopBackOff right now. */
  crashLooping: boolean;
  restartCount?: number;
  /** When the last failed run ended (RFC 3339), when known. */
  at?: string;
}

function containerMessages(status: unknown): { text: string; at?: string }[] {
  const out: { text: string; at?: string }[] = [];
  for (const [state, key] of [['state', 'waiting'], ['state', 'terminated'], ['lastState', 'terminated']] as const) {
    const s = asObject(dig(status, state, key));
    const text = asString(s?.message);
    if (text) out.push({ text, at: asString(s?.finishedAt) });
  }
  return out;
}

/**
 * Every container (from pod container statuses and from the snapshot's log excerpts) whose messages carry the
 * missing-version error, one entry per pod/container/version, the most recent evidence kept.
 */
export function featureGateCrashes(snapshot: Snapshot): FeatureGateCrash[] {
  const byKey = new Map<string, FeatureGateCrash>();
  const add = (crash: FeatureGateCrash): void => {
    const key = `${crash.pod.namespace}/${crash.pod.name}/${crash.container}/${crash.version}`;
    const prev = byKey.get(key);
    if (!prev) byKey.set(key, crash);
    else byKey.set(key, { ...prev, crashLooping: prev.crashLooping || crash.crashLooping, at: prev.at ?? crash.at });
  };
  for (const pod of objectsOf(snapshot, 'pods')) {
    for (const cs of asArray(dig(pod, 'status', 'containerStatuses'))) {
      const container = asString(asObject(cs)?.name) ?? '';
      const crashLooping = dig(cs, 'state', 'waiting', 'reason') === 'CrashLoopBackOff';
      for (const { text, at } of containerMessages(cs)) {
        const m = MISSING_VERSION_RE.exec(text);
        if (!m) continue;
        const restartCount = asObject(cs)?.restartCount;
        add({
          version: m[1], pod: refOf(pod), container, line: text.trim(), crashLooping, at,
          ...(typeof restartCount === 'number' ? { restartCount } : {}),
        });
      }
    }
  }
  const podStates = new Map(
    objectsOf(snapshot, 'pods').map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, p] as const),
  );
  for (const excerpt of snapshot.logs) {
    for (const line of excerpt.lines) {
      const m = MISSING_VERSION_RE.exec(line);
      if (!m) continue;
      const pod = podStates.get(`${excerpt.ref.namespace}/${excerpt.ref.name}`);
      const cs = asArray(dig(pod, 'status', 'containerStatuses')).find((c) => asObject(c)?.name === excerpt.container);
      add({
        version: m[1], pod: excerpt.ref, container: excerpt.container, line: line.trim(),
        crashLooping: dig(cs, 'state', 'waiting', 'reason') === 'CrashLoopBackOff',
      });
    }
  }
  return [...byKey.values()].sort((a, b) =>
    `${a.pod.namespace}/${a.pod.name}/${a.container}`.localeCompare(`${b.pod.namespace}/${b.pod.name}/${b.container}`));
}

/** The earliest `at` among crashes (RFC 3339), for a finding's `since`. */
export function earliestCrash(crashes: readonly FeatureGateCrash[]): string | undefined {
  let best: string | undefined;
  for (const c of crashes) {
    const t = timeOf(c.at);
    if (t !== undefined && (best === undefined || t < (timeOf(best) ?? Infinity))) best = c.at;
  }
  return best;
}
