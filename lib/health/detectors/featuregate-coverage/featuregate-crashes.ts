/**
 * Finds consumers that crash because the FeatureGate status lacks their version: library-go's
 * `simple_featuregate_reader.go` fails with `missing desired version "X" in featuregates.config.openshift.io/cluster`,
 * which ends up in the container's termination message, its waiting message, or its log.
 */
import type { ObjectRef } from '@/lib/k8s/types';
import type { Snapshot } from '@/lib/health/types';
import { asArray, asObject, asString, dig, objectsOf, timeOf } from '@/lib/health/shared/objects';
import { refOf } from '@/lib/k8s/refs';
import { conditionsOf } from '@/lib/k8s/conditions';

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
  /**
   * When the container first stopped being ready (the pod's Ready / ContainersReady=False transition), when it is not
   * ready now: the onset of the outage, earlier than the last failed run of a crash loop.
   */
  notReadySince?: string;
}

/** When the pod stopped being ready, if it is not ready now (the earlier of Ready and ContainersReady). */
function notReadySince(pod: unknown): string | undefined {
  const times = conditionsOf(pod)
    .filter((c) => (c.type === 'Ready' || c.type === 'ContainersReady') && c.status === 'False')
    .map((c) => c.lastTransitionTime)
    .filter((t): t is string => timeOf(t) !== undefined);
  return times.sort((a, b) => (timeOf(a) ?? 0) - (timeOf(b) ?? 0))[0];
}

function containerMessages(status: unknown): { text: string; at?: string }[] {
  const out: { text: string; at?: string }[] = [];
  for (const [state, key] of [
    ['state', 'waiting'],
    ['state', 'terminated'],
    ['lastState', 'terminated'],
  ] as const) {
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
    else {
      byKey.set(key, {
        ...prev,
        crashLooping: prev.crashLooping || crash.crashLooping,
        at: prev.at ?? crash.at,
        notReadySince: prev.notReadySince ?? crash.notReadySince,
      });
    }
  };
  for (const pod of objectsOf(snapshot, 'pods')) {
    const down = notReadySince(pod);
    for (const cs of asArray(dig(pod, 'status', 'containerStatuses'))) {
      const container = asString(asObject(cs)?.name) ?? '';
      const crashLooping = dig(cs, 'state', 'waiting', 'reason') === 'CrashLoopBackOff';
      for (const { text, at } of containerMessages(cs)) {
        const m = MISSING_VERSION_RE.exec(text);
        if (!m) continue;
        const restartCount = asObject(cs)?.restartCount;
        add({
          version: m[1],
          pod: refOf(pod),
          container,
          line: text.trim(),
          crashLooping,
          at,
          ...(typeof restartCount === 'number' ? { restartCount } : {}),
          ...(down ? { notReadySince: down } : {}),
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
      const down = notReadySince(pod);
      add({
        version: m[1],
        pod: excerpt.ref,
        container: excerpt.container,
        line: line.trim(),
        crashLooping: dig(cs, 'state', 'waiting', 'reason') === 'CrashLoopBackOff',
        ...(down ? { notReadySince: down } : {}),
      });
    }
  }
  return [...byKey.values()].sort((a, b) =>
    `${a.pod.namespace}/${a.pod.name}/${a.container}`.localeCompare(`${b.pod.namespace}/${b.pod.name}/${b.container}`),
  );
}

/**
 * The onset among crashes (RFC 3339), for a finding's `since`: the earliest not-ready transition or failed run of
 * any consumer.
 */
export function earliestCrash(crashes: readonly FeatureGateCrash[]): string | undefined {
  let best: string | undefined;
  for (const t of crashes.flatMap((c) => [c.notReadySince, c.at])) {
    const ms = timeOf(t);
    if (ms !== undefined && (best === undefined || ms < (timeOf(best) ?? Infinity))) best = t;
  }
  return best;
}
