import { compareVersions } from '@/lib/k8s/version';
import { errataUrl, minorOf, releaseImage } from './releases';
import { BLOCKED_EDGES, CHANNELS, RISKS } from './update-graph.generated';
import type { GraphRisk } from './update-graph-types';

/** A release as the CVO lists it in status.availableUpdates / conditionalUpdates[].release. */
export interface ReleaseRef {
  version: string;
  image: string;
  url: string;
  channels: string[];
}

/** The CVO's `Recommended` condition of a conditional update. */
export interface RecommendedCondition {
  type: 'Recommended';
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

/** One status.conditionalUpdates entry with the CVO's evaluated `Recommended` condition. */
export interface ConditionalUpdate {
  release: ReleaseRef;
  risks: GraphRisk[];
  conditions: RecommendedCondition[];
}

/** An update the service offers from a version: the target and the risks of its edge (none: unconditional). */
export interface OfferedUpdate {
  release: ReleaseRef;
  risks: GraphRisk[];
}

/** What the update service answers for a version in a channel. */
export type GraphAnswer =
  { ok: true; updates: OfferedUpdate[] } | { ok: false; reason: 'NoChannel' | 'VersionNotFound'; message: string };

/** What a PromQL query returned: the vector's sample values, or the client's error. */
export type PromqlAnswer = { ok: true; values: number[] } | { ok: false; error: string };

/** Runs one PromQL instant query against the cluster's monitoring. */
export type PromqlQuery = (promql: string) => PromqlAnswer;

/** The CVO's message when no risk of a conditional update matches the cluster. */
export const NOT_EXPOSED =
  'The update is recommended, because none of the conditional update risks apply to this cluster.';

const CHANNELS_OF_RELEASE = (() => {
  const byRelease = new Map<string, string[]>();
  for (const [channel, versions] of Object.entries(CHANNELS)) {
    for (const version of versions) byRelease.set(version, [...(byRelease.get(version) ?? []), channel]);
  }
  for (const list of byRelease.values()) list.sort();
  return byRelease;
})();

/** Channels a release is published in (what the update service and the CVO report as `channels`). */
export function channelsOfRelease(version: string): string[] {
  return [...(CHANNELS_OF_RELEASE.get(version) ?? [])];
}

/** Whether the graph data knows the release (it is in at least one channel). */
export function isKnownRelease(version: string): boolean {
  return CHANNELS_OF_RELEASE.has(version);
}

function releaseRef(version: string): ReleaseRef {
  return { channels: channelsOfRelease(version), image: releaseImage(version), url: errataUrl(version), version };
}

const FROM_PATTERNS = new Map<string, RegExp>();

/** The architecture suffix Cincinnati appends to a release name before matching blocked edges (x86_64 clusters). */
const ARCHITECTURE_SUFFIX = '+amd64';

/**
 * Whether a blocked edge's `from` expression matches a release, as the update service decides it: a regular
 * expression searched (not anchored, unless it carries `^`/`$`) in the release name with its architecture suffix,
 * e.g. `4.14.27+amd64`.
 */
function fromMatches(pattern: string, version: string): boolean {
  let re = FROM_PATTERNS.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    FROM_PATTERNS.set(pattern, re);
  }
  return re.test(`${version}${ARCHITECTURE_SUFFIX}`);
}

const EDGES_BY_TARGET = (() => {
  const byTarget = new Map<string, { from: string; risk: number }[]>();
  for (const [to, from, risk] of BLOCKED_EDGES) byTarget.set(to, [...(byTarget.get(to) ?? []), { from, risk }]);
  return byTarget;
})();

function risksOfEdge(from: string, to: string): GraphRisk[] {
  const risks = new Map<string, GraphRisk>();
  for (const edge of EDGES_BY_TARGET.get(to) ?? []) {
    const risk = RISKS[edge.risk];
    if (fromMatches(edge.from, from) && !risks.has(risk.name)) risks.set(risk.name, risk);
  }
  return [...risks.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * What the update service offers a cluster at `version` in `channel`, from the real channel and blocked-edge data
 * (server/fixtures/cincinnati): releases of the channel newer than `version` that OpenShift's update rules reach —
 * any newer z-stream of the same minor, and the next minor only when `version` is listed in that minor's channel of
 * the same kind as a source — newest first, each with the risks of every blocked edge to it whose `from` matches.
 */
export function updateGraphFor(version: string, channel: string): GraphAnswer {
  const key = `${channel}/${version}`;
  let answer = ANSWERS.get(key);
  if (!answer) {
    answer = answerFor(version, channel);
    ANSWERS.set(key, answer);
  }
  return answer;
}

/** Answers by channel and version: the graph data is fixed, and every CVO sync asks again. */
const ANSWERS = new Map<string, GraphAnswer>();

function answerFor(version: string, channel: string): GraphAnswer {
  if (!channel) return { ok: false, reason: 'NoChannel', message: 'The update channel has not been configured.' };
  const offered = CHANNELS[channel];
  if (!offered?.includes(version)) {
    return {
      ok: false,
      reason: 'VersionNotFound',
      message:
        'Unable to retrieve available updates: currently reconciling cluster version ' +
        `${version} not found in the "${channel}" channel`,
    };
  }
  const kind = channel.slice(0, channel.lastIndexOf('-'));
  const [major, minor] = minorOf(version).split('.').map(Number);
  const nextMinor = `${major}.${minor + 1}`;
  const updates = offered
    .filter((target) => compareVersions(target, version) > 0)
    .filter((target) => {
      const targetMinor = minorOf(target);
      if (targetMinor === minorOf(version)) return true;
      // the next minor's channel of this kind lists its sources; EUS has none for odd minors, its own list does
      return targetMinor === nextMinor && (CHANNELS[`${kind}-${nextMinor}`] ?? offered).includes(version);
    })
    .sort((a, b) => compareVersions(b, a))
    .map((target) => ({ release: releaseRef(target), risks: risksOfEdge(version, target) }));
  return { ok: true, updates };
}

/** How one risk's matching rules evaluated: applies, does not apply, or the evaluation failed. */
type RiskOutcome = { match: boolean } | { error: string };

/** The CVO's PromQL cluster condition: exactly one sample, 0 (not exposed) or 1 (exposed); anything else fails. */
function promqlOutcome(answer: PromqlAnswer): RiskOutcome {
  if (!answer.ok) return { error: `executing PromQL query: ${answer.error}` };
  if (answer.values.length !== 1) {
    return { error: `invalid PromQL result length must be one, but is ${answer.values.length}` };
  }
  const [value] = answer.values;
  if (value === 0) return { match: false };
  if (value === 1) return { match: true };
  return { error: `invalid PromQL result (must be 0 or 1): ${value}` };
}

/** A risk's matching rules in order: the first rule that evaluates decides (Always matches). */
function riskOutcome(risk: GraphRisk, query: PromqlQuery): RiskOutcome {
  let last: RiskOutcome = { error: 'no recognized cluster condition' };
  for (const rule of risk.matchingRules) {
    if (rule.type === 'Always') return { match: true };
    last = promqlOutcome(query(rule.promql.promql));
    if (!('error' in last)) return last;
  }
  return last;
}

/**
 * The `Recommended` condition the CVO computes for a conditional update: False with the risk's name (or
 * MultipleReasons) when a risk applies, Unknown EvaluationFailed when a risk could not be evaluated and none applies,
 * True AsExpected when no risk applies. `lastTransitionTime` is kept from `previous` while status and reason hold.
 */
export function evaluateConditionalUpdate(
  update: OfferedUpdate,
  query: PromqlQuery,
  now: string,
  previous?: RecommendedCondition,
): ConditionalUpdate {
  let status: RecommendedCondition['status'] | undefined;
  let reason = '';
  const messages: string[] = [];
  for (const risk of update.risks) {
    const outcome = riskOutcome(risk, query);
    if ('error' in outcome) {
      if (status !== 'False') status = 'Unknown';
      reason = reason === '' || reason === 'EvaluationFailed' ? 'EvaluationFailed' : 'MultipleReasons';
      const exposure = `Exposure to ${risk.name} is unknown due to an evaluation failure: ${outcome.error}`;
      messages.push(`${exposure}\n${risk.message} ${risk.url}`);
    } else if (outcome.match) {
      status = 'False';
      reason = reason === '' ? risk.name : 'MultipleReasons';
      messages.push(`${risk.message} ${risk.url}`);
    }
  }
  const condition =
    status === undefined
      ? { status: 'True' as const, reason: 'AsExpected', message: NOT_EXPOSED }
      : { status, reason, message: messages.join('\n\n') };
  const unchanged = previous && previous.status === condition.status && previous.reason === condition.reason;
  return {
    release: update.release,
    risks: update.risks,
    conditions: [
      {
        type: 'Recommended',
        ...condition,
        lastTransitionTime: unchanged ? previous.lastTransitionTime : now,
      },
    ],
  };
}

/** status.availableUpdates and status.conditionalUpdates as the CVO writes them from an update service answer. */
export interface EvaluatedGraph {
  availableUpdates: ReleaseRef[];
  conditionalUpdates: ConditionalUpdate[];
}

/**
 * Evaluates every offered update the way the CVO does: unconditional ones go to availableUpdates; conditional ones
 * to conditionalUpdates with their Recommended condition, and also to availableUpdates when Recommended=True.
 */
export function evaluateGraph(
  updates: OfferedUpdate[],
  query: PromqlQuery,
  now: string,
  previous: ConditionalUpdate[] = [],
): EvaluatedGraph {
  const availableUpdates: ReleaseRef[] = [];
  const conditionalUpdates: ConditionalUpdate[] = [];
  for (const update of updates) {
    if (update.risks.length === 0) {
      availableUpdates.push(update.release);
      continue;
    }
    const before = previous.find((entry) => entry.release.version === update.release.version)?.conditions[0];
    const evaluated = evaluateConditionalUpdate(update, query, now, before);
    conditionalUpdates.push(evaluated);
    if (evaluated.conditions[0].status === 'True') availableUpdates.push(update.release);
  }
  return { availableUpdates, conditionalUpdates };
}
