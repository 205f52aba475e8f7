/**
 * The text `oc adm upgrade recommend [--show-outdated-releases | --version V]` prints, from
 * {@link UpdateRecommendationsDto}: stdout, stderr warnings and the final error (oc prints it as `error: ...`
 * and exits non-zero), byte for byte as openshift/oc pkg/cli/admin/upgrade/recommend/recommend.go writes them.
 */
import type { UpdateRecommendationsDto, UpdateTargetDto } from '@/lib/api/recommend-dto';
import { parseVersion } from '@/lib/k8s/version';
import { conditionOf } from '@/lib/k8s/conditions';
import { TabWriter } from '@/lib/text/tab-writer';

/** Flags of the command. `version` and `showOutdatedReleases` exclude each other, as in oc. */
export interface RecommendOptions {
  showOutdatedReleases?: boolean;
  version?: string;
}

/** What the command writes. `error` is the message after `error: `, when it fails. */
export interface RecommendOutput {
  stdout: string;
  stderr: string;
  error?: string;
}

/** A usage error oc reports before printing anything. */
export class RecommendUsageError extends Error {
  override name = 'RecommendUsageError';
}

const indent = (text: string) => text.replaceAll('\n', '\n  ');

/** The (major, minor) buckets, newest first, each newest first (targets come sorted). */
function buckets(updates: readonly UpdateTargetDto[]): { major: number; minor: number; updates: UpdateTargetDto[] }[] {
  const out: { major: number; minor: number; updates: UpdateTargetDto[] }[] = [];
  for (const update of updates) {
    const v = parseVersion(update.version);
    if (!v) continue;
    let bucket = out.find((b) => b.major === v.major && b.minor === v.minor);
    if (!bucket) out.push((bucket = { major: v.major, minor: v.minor, updates: [] }));
    bucket.updates.push(update);
  }
  return out.sort((a, b) => b.major - a.major || b.minor - a.minor);
}

/** The header part every variant prints: Failing, Progressing, prechecks, RetrievedUpdates, upstream, channel. */
function header(
  recommendations: UpdateRecommendationsDto,
  out: (s: string) => void,
  err: (s: string) => void,
  issues: Set<string>,
): void {
  const failing = conditionOf(recommendations.clusterConditions, 'Failing');
  if (failing) {
    if (failing.status !== 'False') {
      out(
        `${failing.type}=${failing.status}:\n\n  Reason: ${failing.reason}\n  Message: ${indent(failing.message)}\n\n`,
      );
      issues.add('Failing');
    }
  } else {
    err('warning: No current Failing info, see `oc describe clusterversion` for more details.\n');
    issues.add('Failing');
  }
  const progressing = conditionOf(recommendations.clusterConditions, 'Progressing');
  if (progressing?.status === 'True' && progressing.message) {
    out(
      `info: An update is in progress.  You may wish to let this update complete before requesting a new update.\n  ${indent(progressing.message)}\n\n`,
    );
    issues.add('Progressing');
  }
  if (recommendations.precheckError !== undefined) {
    out(`Failed to check for at least some preconditions: ${recommendations.precheckError}\n`);
    issues.add('FailedToCompletePrecheck');
  }
  const happy: string[] = [];
  const unhappy = recommendations.prechecks.filter((c) => c.status !== 'True');
  for (const c of recommendations.prechecks) {
    if (c.status === 'True') happy.push(`${c.name} (${c.reason})`);
    else issues.add(c.acceptanceName ?? '');
  }
  if (happy.length > 0)
    out(
      `The following conditions found no cause for concern in updating this cluster to later releases: ${happy.sort().join(', ')}\n\n`,
    );
  if (unhappy.length > 0) {
    out(
      `The following conditions found cause for concern in updating this cluster to later releases: ${unhappy
        .map((c) => c.name)
        .sort()
        .join(', ')}\n\n`,
    );
    for (const c of unhappy)
      out(`${c.name}=${c.status}:\n\n  Reason: ${c.reason}\n  Message: ${indent(c.message)}\n\n`);
  }
  const retrieved = conditionOf(recommendations.clusterConditions, 'RetrievedUpdates');
  if (retrieved && retrieved.status !== 'True') {
    err(
      `warning: Cannot refresh available updates:\n  Reason: ${retrieved.reason}\n  Message: ${indent(retrieved.message)}\n\n`,
    );
    issues.add('CannotRetrieveUpdates');
  }
  if (recommendations.channel) {
    out(
      recommendations.upstream
        ? `Upstream update service: ${recommendations.upstream}\n`
        : 'Upstream update service is unset, so the cluster will use an appropriate default.\n',
    );
    out(
      recommendations.availableChannels.length > 0
        ? `Channel: ${recommendations.channel} (available channels: ${recommendations.availableChannels.join(', ')})\n`
        : `Channel: ${recommendations.channel}\n`,
    );
  }
}

/** `--version V`: the one target's context, or why there is none; unaccepted issues make it fail. */
function versionContext(
  recommendations: UpdateRecommendationsDto,
  raw: string,
  out: (s: string) => void,
  issues: Set<string>,
): string | undefined {
  const wanted = parseVersion(raw);
  if (!wanted) return `cannot parse SemVer target "${raw}"`;
  const all = buckets(recommendations.updates);
  if (all.length === 0)
    return `no updates available, so cannot display context for the requested release ${wanted.raw}`;
  if (!all.some((b) => b.major === wanted.major))
    return `no updates to ${wanted.major} available, so cannot display context for the requested release ${wanted.raw}`;
  const bucket = all.find((b) => b.major === wanted.major && b.minor === wanted.minor);
  if (!bucket)
    return `no updates to ${wanted.major}.${wanted.minor} available, so cannot display context for the requested release ${wanted.raw}`;
  const update = bucket.updates.find((u) => u.version === wanted.raw);
  if (!update) return `no update to ${wanted.raw} available, so cannot display context for the requested release`;
  out('\n');
  if (update.recommended) {
    out(
      `Update to ${update.version} has no known issues relevant to this cluster.\nImage: ${update.image}\nRelease URL: ${update.releaseUrl ?? ''}\n`,
    );
  } else {
    out(
      `Update to ${update.version} Recommended=${update.recommendedStatus}:\nImage: ${update.image}\nRelease URL: ${update.releaseUrl ?? ''}\nReason: ${update.reason ?? ''}\nMessage: ${indent(update.message ?? '')}\n`,
    );
    issues.add('ConditionalUpdateRisk');
  }
  return issues.size > 0
    ? `issues that apply to this cluster but which were not included in --accept: ${[...issues].sort().join(',')}`
    : undefined;
}

/** The per-minor listing: recent targets (or all with `--show-outdated-releases`), long form for risky ones. */
function listing(recommendations: UpdateRecommendationsDto, showOutdated: boolean, out: (s: string) => void): void {
  const all = buckets(recommendations.updates);
  if (all.length === 0) {
    out(
      'No updates available. You may still upgrade to a specific release image with --to-image or wait for new updates to be available.\n',
    );
    return;
  }
  for (const { major, minor, updates } of all) {
    out(`\nUpdates to ${major}.${minor}:\n`);
    let lastWasLong = false;
    let headerQueued = true;
    const w = new TabWriter(out, 14, 1);
    w.row('  VERSION', 'ISSUES');
    for (const [i, update] of updates.entries()) {
      const concern = !update.recommended;
      if (lastWasLong || (concern && !showOutdated)) {
        out('\n');
        if (!concern && !headerQueued) {
          w.row('  VERSION', 'ISSUES');
          headerQueued = true;
        }
        lastWasLong = false;
      }
      if (i === 2 && !showOutdated) {
        out(
          `And ${updates.length - 2} older ${major}.${minor} updates you can see with '--show-outdated-releases' or '--version VERSION'.\n`,
        );
        lastWasLong = true;
        break;
      }
      if (!concern) {
        w.row(`  ${update.version}`, 'no known issues relevant to this cluster');
        if (!showOutdated) {
          headerQueued = false;
          w.flush();
        }
      } else if (showOutdated) {
        w.row(`  ${update.version}`, update.reason ?? '');
      } else {
        out(`  Version: ${update.version}\n  Image: ${update.image}\n`);
        out(`  Reason: ${update.reason ?? ''}\n  Message: ${indent((update.message ?? '').trim())}\n`);
        lastWasLong = true;
      }
    }
    if (showOutdated) w.flush();
  }
}

/**
 * Renders what oc prints. Throws {@link RecommendUsageError} for flag combinations oc refuses before running
 * (`--version` with `--show-outdated-releases`).
 */
export function formatRecommend(
  recommendations: UpdateRecommendationsDto,
  options: RecommendOptions = {},
): RecommendOutput {
  if (options.version !== undefined && options.showOutdatedReleases) {
    throw new RecommendUsageError('when --version is set, --show-outdated-releases is unnecessary');
  }
  if (options.version !== undefined && !parseVersion(options.version)) {
    throw new RecommendUsageError(`cannot parse SemVer target "${options.version}"`);
  }
  let stdout = '';
  let stderr = '';
  const out = (s: string) => {
    stdout += s;
  };
  const err = (s: string) => {
    stderr += s;
  };
  const issues = new Set<string>();
  header(recommendations, out, err, issues);
  if (options.version !== undefined) {
    const error = versionContext(recommendations, options.version, out, issues);
    return error === undefined ? { stdout, stderr } : { stdout, stderr, error };
  }
  listing(recommendations, options.showOutdatedReleases ?? false, out);
  return { stdout, stderr };
}
