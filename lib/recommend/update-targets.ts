/**
 * Update targets of a ClusterVersion as `oc adm upgrade recommend` sees them (openshift/oc
 * pkg/cli/admin/upgrade/recommend/recommend.go): conditional updates, plus available updates not listed as
 * conditional (matched by image), with `Upgradeable=False` injected as a risk of every minor or major update.
 */
import type { UpdateRiskDto, UpdateTargetDto } from '@/lib/api/recommend-dto';
import { asArray, asObject, asString, dig } from '@/lib/health/shared/objects';
import { compareVersions, parseVersion } from '@/lib/k8s/version';

interface Condition {
  status: string;
  reason: string;
  message: string;
}

/** A target before oc's "is it recommended?" judgement. */
interface Target {
  version: string;
  image: string;
  url: string;
  conditional: boolean;
  risks: UpdateRiskDto[];
  recommended?: Condition;
}

/** The ClusterVersion condition oc injects as a risk. */
export interface UpgradeableCondition {
  reason: string;
  message: string;
}

/** oc parses versions with blang/semver, which takes no leading `v`. */
function semver(version: string) {
  return /^v/.test(version.trim()) ? undefined : parseVersion(version);
}

function risksOf(update: unknown): UpdateRiskDto[] {
  return asArray(dig(update, 'risks')).map((risk) => ({
    name: asString(dig(risk, 'name')) ?? '',
    message: asString(dig(risk, 'message')) ?? '',
    url: asString(dig(risk, 'url')) ?? '',
    matchingRules: asArray(dig(risk, 'matchingRules')).map((rule) => asString(dig(rule, 'type')) ?? ''),
  }));
}

function recommendedConditionOf(update: unknown): Condition | undefined {
  const condition = asArray(dig(update, 'conditions'))
    .map(asObject)
    .find((c) => c?.type === 'Recommended');
  if (!condition) return undefined;
  return {
    status: asString(condition.status) ?? '',
    reason: asString(condition.reason) ?? '',
    message: asString(condition.message) ?? '',
  };
}

function releaseOf(release: unknown): { version: string; image: string; url: string } {
  return {
    version: asString(dig(release, 'version')) ?? '',
    image: asString(dig(release, 'image')) ?? '',
    url: asString(dig(release, 'url')) ?? '',
  };
}

/** Conditional updates, then available updates whose image no conditional update has; unparseable versions dropped. */
function collectTargets(clusterVersion: unknown): Target[] {
  const conditional = asArray(dig(clusterVersion, 'status', 'conditionalUpdates'));
  const conditionalImages = new Set(conditional.map((update) => asString(dig(update, 'release', 'image'))));
  const targets: Target[] = conditional.map((update) => ({
    ...releaseOf(dig(update, 'release')),
    conditional: true,
    risks: risksOf(update),
    recommended: recommendedConditionOf(update),
  }));
  for (const update of asArray(dig(clusterVersion, 'status', 'availableUpdates'))) {
    if (conditionalImages.has(asString(dig(update, 'image')))) continue;
    targets.push({ ...releaseOf(update), conditional: false, risks: [] });
  }
  return targets.filter((target) => semver(target.version) !== undefined);
}

/** oc's documentation link for `Upgradeable`, which moved after 4.13. */
function upgradeableUrl(major: number, minor: number): string {
  return minor <= 13
    ? `https://docs.openshift.com/container-platform/${major}.${minor}/updating/index.html#understanding_clusteroperator_conditiontypes_updating-clusters-overview`
    : `https://docs.openshift.com/container-platform/${major}.${minor}/updating/preparing_for_updates/updating-cluster-prepare.html#cluster-upgradeable_updating-cluster-prepare`;
}

function injectUpgradeable(target: Target, upgradeable: UpgradeableCondition, url: string): void {
  if (target.risks.some((risk) => risk.message.includes(upgradeable.message))) return;
  target.risks.push({ name: 'UpgradeableFalse', message: upgradeable.message, url, matchingRules: ['Always'] });
  const current = target.recommended;
  if (!current) target.recommended = { status: 'False', reason: upgradeable.reason, message: upgradeable.message };
  else if (current.status === 'True')
    target.recommended = { status: 'False', reason: upgradeable.reason, message: upgradeable.message };
  else
    target.recommended = {
      status: 'False',
      reason: 'MultipleReasons',
      message: `${upgradeable.message}\n\n${current.message}`,
    };
}

/**
 * oc's `notRecommendedCondition`: nothing when the target has no risks or `Recommended=True`; the `Recommended`
 * condition otherwise, or `Unknown`/`NoConditions` when risks come without conditions. The risk list keeps oc's
 * quirk of `len(risks)` empty names before the real ones (`make` with a length, then `append`).
 */
function notRecommended(target: Target): Condition | undefined {
  if (target.risks.length === 0) return undefined;
  if (target.recommended) return target.recommended.status === 'True' ? undefined : target.recommended;
  const names = [...target.risks.map(() => ''), ...target.risks.map((risk) => risk.name)].sort();
  return {
    status: 'Unknown',
    reason: 'NoConditions',
    message: `Conditional update to ${target.version} has risks (${names.join(', ')}), but no conditions.`,
  };
}

function toDto(target: Target): UpdateTargetDto {
  const concern = notRecommended(target);
  const status =
    concern?.status === 'False' || concern?.status === 'Unknown' ? concern.status : concern ? 'Unknown' : 'True';
  return {
    version: target.version,
    image: target.image,
    recommended: concern === undefined,
    recommendedStatus: status,
    ...(concern ? { reason: concern.reason, message: concern.message } : {}),
    ...(target.url ? { releaseUrl: target.url } : {}),
    conditional: target.conditional,
    risks: target.risks,
  };
}

/** Stands for a missing update list in {@link computed}'s keys. */
const NO_LIST: object = Object.freeze([]);

/**
 * Targets already computed, by the identity of the two update lists, then by current version and `Upgradeable`. The
 * watch layer shares one frozen copy of equal update lists between clusters (they are most of a ClusterVersion and
 * the same across a fleet), and a cluster is evaluated again on every change, so the same lists come back thousands
 * of times; the entries go with the lists.
 */
const computed = new WeakMap<object, WeakMap<object, Map<string, readonly UpdateTargetDto[]>>>();

function listKey(value: unknown): object {
  return Array.isArray(value) ? value : NO_LIST;
}

function freezeTarget(target: UpdateTargetDto): UpdateTargetDto {
  for (const risk of target.risks) Object.freeze(risk.matchingRules);
  target.risks.forEach(Object.freeze);
  Object.freeze(target.risks);
  return Object.freeze(target);
}

/**
 * Every update target of the ClusterVersion, newest first. When `upgradeable` is given (ClusterVersion
 * `Upgradeable=False`) and the current version parses, every target of a later minor or major gets the
 * `UpgradeableFalse` risk and turns `Recommended=False`, as oc shows it. The targets are frozen (shared between calls
 * with the same update lists); the array is the caller's.
 */
export function updateTargets(
  clusterVersion: unknown,
  currentVersion: string | null,
  upgradeable?: UpgradeableCondition,
): UpdateTargetDto[] {
  const available = listKey(dig(clusterVersion, 'status', 'availableUpdates'));
  const conditional = listKey(dig(clusterVersion, 'status', 'conditionalUpdates'));
  let byConditional = computed.get(available);
  if (!byConditional) computed.set(available, (byConditional = new WeakMap()));
  let byInput = byConditional.get(conditional);
  if (!byInput) byConditional.set(conditional, (byInput = new Map()));
  const key = JSON.stringify([currentVersion, upgradeable?.reason ?? null, upgradeable?.message ?? null]);
  let targets = byInput.get(key);
  if (!targets) byInput.set(key, (targets = computeTargets(clusterVersion, currentVersion, upgradeable)));
  return [...targets];
}

function computeTargets(
  clusterVersion: unknown,
  currentVersion: string | null,
  upgradeable?: UpgradeableCondition,
): readonly UpdateTargetDto[] {
  const targets = collectTargets(clusterVersion);
  const current = currentVersion === null ? undefined : semver(currentVersion);
  if (upgradeable && current) {
    const url = upgradeableUrl(current.major, current.minor);
    for (const target of targets) {
      const v = semver(target.version);
      if (!v || v.major < current.major || (v.major === current.major && v.minor <= current.minor)) continue;
      injectUpgradeable(target, upgradeable, url);
    }
  }
  return Object.freeze(
    targets
      .map(toDto)
      .map(freezeTarget)
      .sort((a, b) => compareVersions(b.version, a.version)),
  );
}
