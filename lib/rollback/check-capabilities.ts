/**
 * Pre-flight check 2 (failure mode B): the capabilities enabled now against the ClusterVersion CRD enum of the target
 * release. Capabilities cannot be disabled once enabled, so any value the target CRD lacks freezes ClusterVersion
 * status for good after the rollback.
 */
import { predictRejection } from '@/lib/health/shared/capability-rejection';
import { stringsAt } from '@/lib/health/shared/objects';
import { refOf } from '@/lib/k8s/refs';
import { checkResult, type RollbackCheck } from './rollback-context';

const PATH = 'status.capabilities.enabledCapabilities';

/** Check `capabilities`. Always compares the capabilities enabled now with the target release's CRD enum. */
export const checkCapabilities: RollbackCheck = (ctx) => {
  const cv = ctx.clusterVersion;
  if (!cv)
    return checkResult(
      'capabilities',
      'warn',
      'No ClusterVersion visible',
      'The enabled capabilities are unknown, so the target CRD enum cannot be compared.',
    );
  const ref = refOf(cv);
  const enabled = stringsAt(cv, 'status', 'capabilities', 'enabledCapabilities');
  const target = ctx.target.version;
  const prediction = predictRejection(enabled, target);
  const enabledEvidence = { kind: 'field' as const, label: 'Enabled now', ref, path: PATH, value: enabled };
  if (!prediction.targetRelease) {
    return checkResult(
      'capabilities',
      'warn',
      `No capability data for ${target}`,
      `The release table (built from the real ClusterVersion CRDs, 4.11 onwards) has no entry for ${target}, so the guide cannot say whether its CRD accepts the enabled capabilities.`,
      [enabledEvidence],
    );
  }
  const release = prediction.newerThanKnown ? `master (standing in for ${target})` : prediction.targetRelease;
  const enumEvidence = {
    kind: 'field' as const,
    label: `${release} ClusterVersion CRD enum`,
    path: `spec.versions[name=v1].schema.openAPIV3Schema.properties.${PATH.replace(/\./g, '.properties.')}.items.enum`,
    value: prediction.supported ? [...prediction.supported] : null,
  };
  if (prediction.rejected.length === 0) {
    return checkResult(
      'capabilities',
      'pass',
      `The ${release} CRD accepts every enabled capability`,
      `All ${enabled.length} enabled capabilities are in the ${release} ClusterVersion CRD enum${prediction.supported ? '' : ' (it has no enum on that field)'}; the CVO can keep writing status after the change.`,
      [enabledEvidence, enumEvidence],
    );
  }
  const names = prediction.rejected.join(', ');
  return checkResult(
    'capabilities',
    'block',
    `The ${release} ClusterVersion CRD rejects ${names}`,
    `The ${release} CRD enum on ${PATH} lacks ${names}, which are enabled now and can never be disabled. The rollback re-applies that CRD, and ` +
      'from then on the API server rejects every ClusterVersion status write: the CVO will be unable to write status after the rollback ' +
      '(history, conditions and progress freeze silently; no CVO metric reports it). No oc flag lifts this.',
    [
      enabledEvidence,
      enumEvidence,
      { kind: 'field', label: 'Values the target CRD will reject', ref, path: PATH, value: prediction.rejected },
      {
        kind: 'field',
        label: 'API server answer to every CVO status write after the rollback',
        ref,
        value: prediction.message,
      },
    ],
    [
      { title: 'Confirm the enabled capabilities', command: `oc get clusterversion version -o jsonpath='{.${PATH}}'` },
      {
        title: 'Roll forward to a release whose CRD lists every enabled capability instead',
        command: 'oc adm upgrade recommend',
      },
    ],
  );
};
