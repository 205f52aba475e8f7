/**
 * Pre-flight check 3 (failure mode A): FeatureGate `status.featureGates[].version` must keep the target version, or
 * every component at the target crash-loops with `missing desired version` (library-go feature-gate reader).
 */
import { asArray, asObject, asString, dig, findObject } from '@/lib/health/shared/objects';
import { refOf } from '@/lib/k8s/refs';
import { checkResult, type RollbackCheck } from './rollback-context';

/** Check `featuregate`. Missing target that the history knows → block; never-installed target → warn. */
export const checkFeatureGate: RollbackCheck = (ctx) => {
  const target = ctx.target.version;
  const fg = findObject(ctx.snapshot, 'featuregates', 'cluster');
  if (!fg) {
    return checkResult(
      'featuregate',
      'warn',
      'FeatureGate cluster not visible',
      'The guide cannot read featuregates.config.openshift.io/cluster, so it cannot confirm the target version is recorded.',
      [],
      [
        {
          title: 'Read the recorded versions',
          command: "oc get featuregate cluster -o jsonpath='{.status.featureGates[*].version}'",
        },
      ],
    );
  }
  const ref = refOf(fg);
  const versions = asArray(dig(fg, 'status', 'featureGates'))
    .map((g) => asString(asObject(g)?.version))
    .filter((v): v is string => !!v);
  const evidence = [
    {
      kind: 'field' as const,
      label: 'Versions in FeatureGate status',
      ref,
      path: 'status.featureGates[].version',
      value: versions,
    },
  ];
  if (versions.length === 0) {
    return checkResult(
      'featuregate',
      'pass',
      'FeatureGate status records no versions',
      'Clusters before 4.14 do not record versions in FeatureGate status, and their components do not look one up: nothing to keep.',
      evidence,
    );
  }
  if (versions.includes(target)) {
    return checkResult(
      'featuregate',
      'pass',
      `FeatureGate status keeps ${target}`,
      `Components at ${target} will find their feature set in featuregates.config.openshift.io/cluster.`,
      evidence,
    );
  }
  const crash = `components at ${target} exit with \`unable to determine features: missing desired version "${target}" in featuregates.config.openshift.io/cluster\` and crash-loop`;
  const remediation = [
    {
      title: 'Check the recorded versions again right before the rollback',
      command: "oc get featuregate cluster -o jsonpath='{.status.featureGates[*].version}'",
    },
  ];
  // A roll-forward is an update: the target's config operator records its version before other components start.
  if (ctx.target.inHistory && ctx.direction === 'rollback') {
    return checkResult(
      'featuregate',
      'block',
      `FeatureGate status lacks ${target}`,
      `${target} is in the ClusterVersion history but no longer in FeatureGate status (a control plane that replaced the list instead of appending it). ` +
        `After the rollback ${crash}.`,
      evidence,
      remediation,
    );
  }
  return checkResult(
    'featuregate',
    'warn',
    `FeatureGate status does not list ${target} yet`,
    `${target} was never installed, so it is not recorded; the target's config operator must add it before other components start, otherwise ${crash}. ` +
      'HyperShift control planes that replace the list instead of appending have dropped versions this way.',
    evidence,
    remediation,
  );
};
