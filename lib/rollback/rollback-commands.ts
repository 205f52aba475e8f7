/**
 * The exact `oc` lines for a rollback in the cluster's situation. Flags are added only when the situation needs them,
 * each with the reason, and `--force` only for a cross-minor rollback the user explicitly accepted.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { compareVersions, minorOf } from '@/lib/k8s/version';
import { desiredOf, isFailing, isProgressing, previousEntry, type RollbackTarget } from './rollback-context';

/** Commands to copy, in order, and why each flag is there (or why there is no command). */
export interface RollbackCommands {
  commands: string[];
  notes: string[];
}

const WATCH = 'oc adm upgrade status';

/**
 * Computes the commands: `oc adm upgrade rollback` when the CVO supports the rollback as-is (previous entry, same
 * minor, Progressing=False); otherwise `oc adm upgrade --to-image=<image@digest> --allow-explicit-upgrade` plus
 * `--allow-upgrade-with-warnings` (Progressing or Failing) and `--force` (accepted cross-minor risk).
 */
export function rollbackCommands(
  clusterVersion: KubeObject | undefined,
  target: RollbackTarget,
  acceptCrossMinorRisk: boolean,
): RollbackCommands {
  const desired = desiredOf(clusterVersion);
  if (!clusterVersion || !desired.version)
    return { commands: [], notes: ['ClusterVersion is not visible: no command can be derived.'] };
  if (desired.version === target.version) {
    return {
      commands: [WATCH],
      notes: [`ClusterVersion already targets ${target.version}; nothing to request. Watch it converge.`],
    };
  }
  const order = compareVersions(target.version, desired.version);
  const previous = previousEntry(clusterVersion);
  const isPrevious = previous?.version === target.version;
  const sameMinor = minorOf(target.version) === minorOf(desired.version);
  const progressing = isProgressing(clusterVersion);
  const failing = isFailing(clusterVersion);
  if (order < 0 && isPrevious && sameMinor && !progressing && !failing) {
    return {
      commands: ['oc adm upgrade rollback', WATCH],
      notes: [
        `\`oc adm upgrade rollback\` sets spec.desiredUpdate to the previous history entry ${previous.version} (${previous.image}), the one rollback the CVO supports.`,
      ],
    };
  }
  const notes: string[] = [];
  if (order < 0 && !isPrevious) {
    return {
      commands: [],
      notes: [
        `The CVO only rolls back to the previous version${previous ? ` ${previous.version}` : ''}; ${target.version} has no supported path. Roll forward instead.`,
      ],
    };
  }
  const crossMinor = order < 0 && !sameMinor;
  if (crossMinor && !acceptCrossMinorRisk) {
    return {
      commands: [],
      notes: [
        `The CVO's ClusterVersionRollback precondition refuses ${desired.version} → ${target.version} (LowDesiredVersion: rollbacks that change the minor version are not supported). ` +
          'Only --force overrides it; the guide shows that command only after you accept the risk explicitly.',
      ],
    };
  }
  const image = target.image ?? `<release image of ${target.version} by digest>`;
  const flags = [`--to-image=${image}`, '--allow-explicit-upgrade'];
  const fromHistory = target.image ? ' from the ClusterVersion history' : '';
  notes.push(
    order > 0
      ? `A roll-forward to ${target.version}: --to-image pins the release by digest${fromHistory}; ` +
          '--allow-explicit-upgrade lets oc take a release given by image rather than picked from the updates the ' +
          'cluster offers.'
      : '--to-image pins the release by digest from the ClusterVersion history; --allow-explicit-upgrade is required ' +
          'because the target is not among the updates the cluster offers (a rollback never is).',
  );
  if (!target.image)
    notes.push(
      `${target.version} is not in the history: replace the placeholder with its release image pinned by digest (quay.io/openshift-release-dev/ocp-release@sha256:…), never a tag.`,
    );
  if (progressing || failing) {
    flags.push('--allow-upgrade-with-warnings');
    notes.push(
      `--allow-upgrade-with-warnings: ClusterVersion is ${[progressing ? 'Progressing=True' : '', failing ? 'Failing=True' : ''].filter(Boolean).join(' and ')}, and oc refuses to change the target without it; this retargets the update in flight.`,
    );
  }
  if (crossMinor) {
    flags.push('--force');
    notes.push(
      '--force: the ClusterVersionRollback precondition rejects cross-minor rollbacks; --force overrides it and every other precondition and signature check. You accepted that risk; the failing pre-flight checks say what will break.',
    );
  }
  return { commands: [`oc adm upgrade ${flags.join(' ')}`, WATCH], notes };
}
