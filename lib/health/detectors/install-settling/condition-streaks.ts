/**
 * Failure streaks and reconcile cadence from a condition-transition history (failure mode E). Conditions keep only
 * their latest message, so the first message of a streak — the root cause — exists only in this history.
 */
import type { ObjectRef } from '@/lib/k8s/types';
import type { ConditionTransition } from '@/lib/health/types';
import { timeOf } from '@/lib/health/shared/objects';

/** Status writes closer than this to the previous one count as an immediate requeue, not a backoff step. */
export const REQUEUE_WINDOW_MS = 5_000;

interface FailureRule {
  type: string;
  status: string;
  reason?: RegExp;
  notReason?: RegExp;
}

/**
 * When a condition means "this object is failing": ClusterExtension (Installed / Progressing with reasons
 * Succeeded, Retrying, Blocked, Failed), BundleDeployment (Installed, Unpacked, Healthy), ClusterCatalog (Serving,
 * Progressing), ClusterOperator (Available, Degraded) and generic standard conditions. Deprecation conditions never
 * count: they are informational.
 */
export const FAILURE_RULES: readonly FailureRule[] = [
  { type: 'Progressing', status: 'True', reason: /^Retrying$/ },
  { type: 'Progressing', status: 'False', reason: /^(Blocked|Failed|ProgressDeadlineExceeded)$/ },
  { type: 'Installed', status: 'False' },
  { type: 'Degraded', status: 'True' },
  { type: 'Failing', status: 'True' },
  { type: 'Available', status: 'False' },
  { type: 'Ready', status: 'False' },
  { type: 'Serving', status: 'False', notReason: /^UserSpecifiedUnavailable$/ },
  { type: 'Unpacked', status: 'False' },
  { type: 'Healthy', status: 'False' },
];

/** Messages of errors that come and go on their own (cleanup races, API hiccups) rather than a root cause. */
export const TRANSIENT_PATTERNS: readonly { pattern: RegExp; label: string }[] = [
  { pattern: /is being terminated/i, label: 'namespace being terminated' },
  { pattern: /the object has been modified/i, label: 'update conflict' },
  { pattern: /connection refused/i, label: 'connection refused' },
  { pattern: /context deadline exceeded/i, label: 'context deadline exceeded' },
  { pattern: /i\/o timeout|TLS handshake timeout|etcdserver: request timed out/i, label: 'timeout' },
  {
    pattern: /the server is currently unable to handle the request|too many requests/i,
    label: 'API server unavailable',
  },
  // "not found" alone is often the root cause (a missing ClusterRole, a missing catalog); only during cleanup is it noise.
  {
    pattern:
      /(delet|clean|uninstall|roll(ed|ing)? ?back)[^\n]*\bnot found\b|\bnot found\b[^\n]*(delet|clean|uninstall|roll(ed|ing)? ?back)/i,
    label: 'not found during cleanup',
  },
  { pattern: /already exists/i, label: 'already exists during re-create' },
];

/**
 * Failures that look like a transient pattern but are root causes: Helm refusing to adopt an object left over
 * from another release ("rendered manifests contain a resource that already exists") never goes away by retrying.
 */
const PERMANENT_PATTERNS: readonly RegExp[] = [
  /rendered manifests contain a resource that already exists/i,
  /cannot be imported into the current release/i,
];

/** The transient pattern a message matches, if any (permanent look-alikes excepted). */
export function transientLabel(message: string | undefined): string | undefined {
  if (!message || PERMANENT_PATTERNS.some((pattern) => pattern.test(message))) return undefined;
  return TRANSIENT_PATTERNS.find((p) => p.pattern.test(message))?.label;
}

/** Whether one transition puts its condition in a failure state. */
export function isFailure(t: Pick<ConditionTransition, 'type' | 'status' | 'reason'>): boolean {
  if (/Deprecated$/.test(t.type)) return false;
  return FAILURE_RULES.some(
    (r) =>
      r.type === t.type &&
      r.status === t.status &&
      (!r.reason || r.reason.test(t.reason ?? '')) &&
      (!r.notReason || !r.notReason.test(t.reason ?? '')),
  );
}

const MESSAGE_PRIORITY = [
  'Progressing',
  'Installed',
  'Degraded',
  'Failing',
  'Unpacked',
  'Serving',
  'Available',
  'Ready',
  'Healthy',
];

function pickMessage(failures: ConditionTransition[]): ConditionTransition {
  return [...failures].sort((a, b) => {
    const pa = MESSAGE_PRIORITY.indexOf(a.type);
    const pb = MESSAGE_PRIORITY.indexOf(b.type);
    return (pa === -1 ? 99 : pa) - (pb === -1 ? 99 : pb) || Number(!a.message) - Number(!b.message);
  })[0];
}

/**
 * Non-failing time after which a new failure starts a new episode (with its own root cause); shorter healthy gaps
 * (a retry that briefly reports success, a rollback that clears the condition) belong to the same episode.
 */
export const EPISODE_SETTLE_MS = 10 * 60_000;

/** The failure history of one object. */
export interface StreakAnalysis {
  ref: ObjectRef;
  /** True when the object is failing at its newest status write. */
  active: boolean;
  /** Status writes with a failure in the current (or last) streak. */
  streakLength: number;
  /**
   * The root cause of the episode: its first failure whose message is not a transient error, kept across streak
   * resets within the episode; the streak's first failure when every message so far is transient.
   */
  rootCause?: ConditionTransition;
  /** When the episode's first failure was written (RFC 3339): the onset. */
  onset?: string;
  /** The newest failure of the streak. */
  latest?: ConditionTransition;
  /** Distinct status writes (transitions sharing `at` are one write) in the retained history. */
  writes: string[];
  /** Runs of ≥ 2 writes each within {@link REQUEUE_WINDOW_MS} of the previous, inside the streak. */
  requeueBursts: number;
  /** Mean writes per burst (e.g. 3 reconciles per backoff step), 0 without bursts. */
  writesPerBurst: number;
}

/** Replays one object's transitions (any order) and returns its current failure streak. */
export function analyzeStreak(ref: ObjectRef, transitions: readonly ConditionTransition[]): StreakAnalysis {
  const sorted = [...transitions].sort((a, b) => (timeOf(a.at) ?? 0) - (timeOf(b.at) ?? 0));
  const writes = [...new Set(sorted.map((t) => t.at))];
  const state = new Map<string, ConditionTransition>();
  let streak: { writes: string[]; first: ConditionTransition; latest: ConditionTransition } | undefined;
  let last: typeof streak;
  let episode: { onset: string; rootCause?: ConditionTransition } | undefined;
  let healthySince: number | undefined;
  for (const at of writes) {
    const group = sorted.filter((t) => t.at === at);
    for (const t of group) state.set(t.type, t);
    const failing = [...state.values()].some(isFailure);
    const failures = group.filter(isFailure);
    if (!failing) {
      if (streak) last = streak;
      streak = undefined;
      healthySince ??= timeOf(at);
      continue;
    }
    if (failures.length === 0) continue;
    if (healthySince !== undefined && (timeOf(at) ?? 0) - healthySince > EPISODE_SETTLE_MS) episode = undefined;
    healthySince = undefined;
    const chosen = pickMessage(failures);
    episode ??= { onset: at };
    if (!episode.rootCause && transientLabel(chosen.message) === undefined) episode.rootCause = chosen;
    if (!streak) streak = { writes: [at], first: chosen, latest: chosen };
    else streak = { ...streak, writes: [...streak.writes, at], latest: chosen };
  }
  const current = streak ?? last;
  const bursts: number[] = [];
  let run = 1;
  const times = (current?.writes ?? []).map((w) => timeOf(w) ?? 0);
  for (let i = 1; i <= times.length; i++) {
    if (i < times.length && times[i] - times[i - 1] <= REQUEUE_WINDOW_MS) run++;
    else {
      if (run >= 2) bursts.push(run);
      run = 1;
    }
  }
  return {
    ref,
    active: streak !== undefined,
    streakLength: current?.writes.length ?? 0,
    ...(current
      ? {
          rootCause: episode?.rootCause ?? current.first,
          latest: current.latest,
          onset: episode?.onset ?? current.first.at,
        }
      : {}),
    writes,
    requeueBursts: bursts.length,
    writesPerBurst: bursts.length ? bursts.reduce((a, b) => a + b, 0) / bursts.length : 0,
  };
}
