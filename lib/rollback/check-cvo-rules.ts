/**
 * Pre-flight check 1: the cluster-version operator's own rollback rules. The CVO (ClusterVersionRollback
 * precondition) and `oc adm upgrade rollback` accept only the previous history entry within the same minor, and oc
 * refuses while ClusterVersion is Progressing=True.
 */
import type { Evidence } from '@/lib/health/types';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import { compareVersions, minorOf } from '@/lib/k8s/version';
import { checkResult, desiredOf, isProgressing, previousEntry, type RollbackCheck } from './rollback-context';

const ROLLBACK_DOC =
  'https://docs.redhat.com/en/documentation/openshift_container_platform/4.21/html/updating_clusters/understanding-openshift-updates-1';

/** Check `cvo-rules`. Cross-minor targets block unless the user accepted the risk (then warn). */
export const checkCvoRules: RollbackCheck = (ctx) => {
  const cv = ctx.clusterVersion;
  const target = ctx.target.version;
  if (!cv)
    return checkResult(
      'cvo-rules',
      'block',
      'No ClusterVersion visible',
      'The guide cannot read ClusterVersion `version`, so it cannot tell what the CVO would accept.',
    );
  const ref = refOf(cv);
  const desired = desiredOf(cv);
  const previous = previousEntry(cv);
  const progressing = conditionOf(cv, 'Progressing');
  const evidence: Evidence[] = [
    { kind: 'field', label: 'Current target', ref, path: 'status.desired.version', value: desired.version },
    {
      kind: 'field',
      label: 'Previous version (first history entry that differs from status.desired)',
      ref,
      path: 'status.history[].version',
      value: previous ? `${previous.version} (${previous.image})` : null,
    },
    {
      kind: 'condition',
      label: `Progressing=${progressing?.status ?? 'Unknown'}`,
      ref,
      path: 'status.conditions[type=Progressing]',
      value: progressing?.message ?? null,
      ...(progressing?.lastTransitionTime ? { at: progressing.lastTransitionTime } : {}),
    },
  ];
  if (!desired.version)
    return checkResult(
      'cvo-rules',
      'block',
      'ClusterVersion has no desired version',
      'status.desired.version is empty; the CVO has not reported what it reconciles.',
      evidence,
    );
  const order = compareVersions(target, desired.version);
  if (order === 0) {
    return checkResult(
      'cvo-rules',
      'pass',
      `${target} is already the desired version`,
      `ClusterVersion already targets ${target}; there is nothing to request. Follow the tracker to see the cluster get there.`,
      evidence,
    );
  }
  if (order > 0) {
    const title = `Roll-forward ${desired.version} → ${target}: an update, not a rollback`;
    const rules = "The rollback rules do not apply; the update's do.";
    return ctx.target.inHistory
      ? checkResult(
          'cvo-rules',
          'pass',
          title,
          `${rules} The cluster ran ${target} before: the command pins its release image by digest from the history.`,
          evidence,
        )
      : checkResult(
          'cvo-rules',
          'warn',
          title,
          `${rules} ${target} is not in the history: check that the update graph offers it and read its conditional ` +
            'risks.',
          evidence,
          [{ title: 'See the updates the cluster recommends', command: 'oc adm upgrade recommend' }],
        );
  }
  const progressingNote = isProgressing(cv)
    ? ` ClusterVersion is Progressing=True: \`oc adm upgrade rollback\` refuses ("unable to rollback while an update is Progressing=True"); wait until the current update settles.`
    : '';
  if (!previous || previous.version !== target) {
    return checkResult(
      'cvo-rules',
      'block',
      `${target} is not the previous version`,
      `${target} is less than the current target ${desired.version}, and the only supported rollback is to the cluster's previous version ` +
        `${previous ? `${previous.version} (${previous.image})` : '(none recorded)'}. The CVO rejects any other lower target (precondition ` +
        `ClusterVersionRollback, reason LowDesiredVersion).${progressingNote}`,
      evidence,
      [
        ...(previous ? [{ title: `Plan the rollback to the previous version ${previous.version} instead` }] : []),
        {
          title: 'Or roll forward to a release with the fix',
          command: 'oc adm upgrade recommend',
          docUrl: ROLLBACK_DOC,
        },
      ],
    );
  }
  if (minorOf(target) !== minorOf(desired.version)) {
    const why =
      `${target} is less than the current target ${desired.version} and matches the cluster's previous version, but rollbacks that ` +
      "change major or minor versions are not supported: the CVO re-applies the older release's manifests and CRDs over objects the newer " +
      'release already migrated, and its ClusterVersionRollback precondition rejects the request unless it is forced.';
    return ctx.acceptCrossMinorRisk
      ? checkResult(
          'cvo-rules',
          'warn',
          `Cross-minor rollback to ${target}: risk accepted`,
          `${why} You accepted that risk, so the commands use --force.${progressingNote}`,
          evidence,
        )
      : checkResult(
          'cvo-rules',
          'block',
          `Cross-minor rollback ${desired.version} → ${target} is not supported`,
          `${why} Accept the risk explicitly to see the forced command; rolling forward is the supported fix.${progressingNote}`,
          evidence,
          [{ title: 'Roll forward instead', command: 'oc adm upgrade recommend', docUrl: ROLLBACK_DOC }],
        );
  }
  if (isProgressing(cv)) {
    return checkResult('cvo-rules', 'block', 'An update is still Progressing', progressingNote.trim(), evidence, [
      { title: 'Watch the update until Progressing=False', command: 'oc adm upgrade status' },
    ]);
  }
  return checkResult(
    'cvo-rules',
    'pass',
    `${target} is the previous version in the same minor`,
    `The CVO accepts a rollback from ${desired.version} to its previous version ${target} within the ${minorOf(target)} z-stream, and ClusterVersion is Progressing=False.`,
    evidence,
  );
};
