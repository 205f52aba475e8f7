/**
 * Failure mode B — CVO status-write rejection. The ClusterVersion CRD puts an enum on capability fields; after a
 * cross-minor rollback re-applies an older CRD, values enabled by the newer release fall outside it and the API
 * server rejects every status write of the cluster-version operator, so ClusterVersion status freezes silently.
 */
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type {
  Detector,
  DetectorContext,
  DetectorOutput,
  Evidence,
  Finding,
  RemediationStep,
  Snapshot,
} from '@/lib/health/types';
import {
  asArray,
  asNumber,
  asObject,
  asString,
  dig,
  findingId,
  findObject,
  objectsOf,
  stringsAt,
  timeOf,
  clusterVersionOf,
} from '@/lib/health/shared/objects';
import { refOf } from '@/lib/k8s/refs';
import {
  CLUSTERVERSION_CRD,
  invalidMessage,
  predictRejection,
  releasesWithEnum,
  selectInstalledCrd,
  violationsAgainstCrd,
  type EnumViolation,
} from '@/lib/health/shared/capability-rejection';
import { parseVersion } from '@/lib/k8s/version';
import { historyOf } from '@/lib/k8s/cluster-version';
import { capabilityEnumsFromCrd } from '@/lib/release/crd-capability-enums';
import { rejectedCapabilities } from '@/lib/release/capabilities';

export { predictRejection, type RejectionPrediction } from '@/lib/health/shared/capability-rejection';

const ID = 'status-write-rejection' as const;
const CVO_NAMESPACE = 'openshift-cluster-version';
const CVO_CONTAINER = 'cluster-version-operator';
const CVO_MANAGER = 'cluster-version-operator';
/** The API server's rejection as the CVO logs it. */
export const REJECTION_LOG_RE = /ClusterVersion\.config\.openshift\.io "version" is invalid/;
const CAPABILITIES_DOC =
  'https://docs.redhat.com/en/documentation/openshift_container_platform/4.21/html/installation_overview/cluster-capabilities';

/** When the CVO last wrote ClusterVersion status, and how that was learned. */
interface LastWrite {
  at?: string;
  source: 'managedFields' | 'transitions' | 'unknown';
}

function lastCvoStatusWrite(cv: KubeObject, snapshot: Snapshot): LastWrite {
  let best: string | undefined;
  for (const entry of asArray(cv.metadata.managedFields)) {
    const e = asObject(entry);
    if (e?.manager !== CVO_MANAGER || e.subresource !== 'status') continue;
    if ((timeOf(e.time) ?? -Infinity) > (timeOf(best) ?? -Infinity)) best = asString(e.time);
  }
  if (best) return { at: best, source: 'managedFields' };
  // Projections may drop managedFields; the newest observed condition change is a lower bound of the last write.
  const changes = snapshot.transitions.filter(
    (t) => t.ref.kind === 'ClusterVersion' && t.ref.name === cv.metadata.name,
  );
  const newest = changes
    .map((t) => t.at)
    .sort((a, b) => (timeOf(a) ?? 0) - (timeOf(b) ?? 0))
    .at(-1);
  return newest ? { at: newest, source: 'transitions' } : { source: 'unknown' };
}

function cvoRejectionLogs(snapshot: Snapshot): { ref: ObjectRef; container: string; lines: string[] }[] {
  return snapshot.logs
    .filter((l) => l.ref.namespace === CVO_NAMESPACE && l.container === CVO_CONTAINER)
    .map((l) => ({ ref: l.ref, container: l.container, lines: l.lines.filter((x) => REJECTION_LOG_RE.test(x)) }))
    .filter((l) => l.lines.length > 0);
}

function remediation(cv: KubeObject, enabled: string[]): RemediationStep[] {
  const steps: RemediationStep[] = [
    {
      title: 'Confirm the rejections in the cluster-version operator log',
      command: `oc -n ${CVO_NAMESPACE} logs deploy/cluster-version-operator | grep 'is invalid'`,
    },
    {
      title: 'Show the capability enum of the installed ClusterVersion CRD',
      command: `oc get crd ${CLUSTERVERSION_CRD} -o jsonpath='{.spec.versions[?(@.name=="v1")].schema.openAPIV3Schema.properties.status.properties.capabilities.properties.enabledCapabilities.items.enum}'`,
    },
    {
      title: 'Show the capabilities the cluster has enabled',
      command: `oc get clusterversion version -o jsonpath='{.status.capabilities.enabledCapabilities}'`,
    },
  ];
  const forward = historyOf(cv).find(
    (h) => h.version && h.image && rejectedCapabilities(enabled, h.version)?.length === 0,
  );
  steps.push(
    forward
      ? {
          title: `Roll forward to ${String(forward.version)} from the history, whose CRD accepts every enabled capability`,
          command: `oc adm upgrade --to-image=${String(forward.image)} --allow-explicit-upgrade`,
          docUrl: CAPABILITIES_DOC,
        }
      : {
          title:
            'Roll forward to a release whose ClusterVersion CRD lists every enabled capability (capabilities cannot be disabled once enabled)',
          command: 'oc adm upgrade --to-image=<release-image@sha256:digest> --allow-explicit-upgrade',
          docUrl: CAPABILITIES_DOC,
        },
  );
  return steps;
}

function corroboration(cv: KubeObject, snapshot: Snapshot, ctx: DetectorContext) {
  const cvRef = refOf(cv);
  const logs = cvoRejectionLogs(snapshot);
  const generation = asNumber(cv.metadata.generation);
  const observed = asNumber(dig(cv, 'status', 'observedGeneration'));
  const lagging = generation !== undefined && observed !== undefined && observed < generation;
  const last = lastCvoStatusWrite(cv, snapshot);
  const lastMs = timeOf(last.at);
  const staleSeconds = lastMs === undefined ? null : Math.max(0, Math.round((ctx.now - lastMs) / 1000));
  const stale = staleSeconds !== null && staleSeconds > ctx.config.statusStaleMinutes * 60;
  const evidence: Evidence[] = logs.map((l) => ({
    kind: 'log',
    label: 'CVO status writes rejected',
    ref: l.ref,
    container: l.container,
    lines: l.lines.slice(-5),
  }));
  if (lagging) {
    evidence.push({
      kind: 'field',
      label: `Spec generation ${generation} not observed`,
      ref: cvRef,
      path: 'status.observedGeneration',
      value: observed ?? null,
    });
  }
  if (last.at) {
    evidence.push({
      kind: 'field',
      label: stale ? 'Last CVO status write (stale)' : 'Last CVO status write',
      ref: cvRef,
      path:
        last.source === 'managedFields'
          ? 'metadata.managedFields[manager=cluster-version-operator,subresource=status].time'
          : 'observed condition transitions',
      value: last.at,
    });
  }
  const notes = [
    logs.length ? `The CVO log already shows ${logs.reduce((n, l) => n + l.lines.length, 0)} rejected write(s).` : '',
    stale ? `No status write by the CVO for ${Math.round((staleSeconds ?? 0) / 60)} min.` : '',
    lagging ? `status.observedGeneration ${observed} < metadata.generation ${generation}.` : '',
  ].filter(Boolean);
  return { evidence, notes, staleSeconds, stale, lagging, logs, last };
}

function enumFinding(
  cv: KubeObject,
  crd: KubeObject,
  violations: EnumViolation[],
  c: ReturnType<typeof corroboration>,
): Finding {
  const cvRef = refOf(cv);
  const enums = capabilityEnumsFromCrd(crd);
  const releases = releasesWithEnum(enums?.enabledCapabilities ?? null);
  const values = [...new Set(violations.map((v) => v.value))];
  const message = invalidMessage(violations);
  const crdName = releases.length ? `the ${releases[0]} ClusterVersion CRD` : 'the installed ClusterVersion CRD';
  // Seen (the CVO logs 422s, or its status went stale) or only certain from the enum: the title says which.
  const observed = c.logs.length > 0 || c.stale;
  return {
    id: findingId(ID, cvRef, 'enum'),
    detector: ID,
    severity: 'critical',
    subject: cvRef,
    title: observed
      ? 'ClusterVersion status writes are being rejected'
      : 'ClusterVersion status writes will be rejected',
    summary: [
      `The installed CRD (enum matches ${releases.length ? releases.join(', ') : 'no known release'}) does not accept ` +
        `${values.join(', ')}, which ClusterVersion carries. Every status update by the cluster-version operator ` +
        `${observed ? 'fails' : 'will fail'} with HTTP 422 and ClusterVersion status freezes silently; no CVO metric ` +
        'reports it.',
      ...c.notes,
    ].join(' '),
    evidence: [
      {
        kind: 'field',
        label: 'Values outside the enum of ' + crdName,
        ref: cvRef,
        path: violations.map((v) => v.path).join(', '),
        value: values,
      },
      {
        kind: 'field',
        label: 'Installed CRD enum',
        ref: refOf(crd),
        path: 'spec.versions[name=v1].schema.openAPIV3Schema.properties.status.properties.capabilities.properties.enabledCapabilities.items.enum',
        value: [...(enums?.enabledCapabilities ?? [])],
      },
      { kind: 'field', label: 'API server response to the next status write', ref: cvRef, value: message },
      ...c.evidence,
    ],
    remediation: remediation(cv, stringsAt(cv, 'status', 'capabilities', 'enabledCapabilities')),
    // Writes are rejected from the first one after the last accepted write.
    ...(observed && c.last.at ? { since: c.last.at } : {}),
    ...(observed ? {} : { basis: 'predicted' as const }),
  };
}

/**
 * The most likely rollback target: the newest history entry of an older minor than the desired version. Rolling
 * back there re-applies that release's CRD, so its enum decides whether the CVO can still write status.
 */
function previousMinorEntry(cv: KubeObject): { version: string; image?: string } | undefined {
  const desired = asString(dig(cv, 'status', 'desired', 'version'));
  const current = desired ? parseVersion(desired) : undefined;
  if (!current) return undefined;
  for (const { version, image } of historyOf(cv)) {
    const parsed = version ? parseVersion(version) : undefined;
    if (parsed && (parsed.major < current.major || (parsed.major === current.major && parsed.minor < current.minor))) {
      return { version: version!, image };
    }
  }
  return undefined;
}

/** Failure B predicted: capabilities enabled now that the previous minor's CRD would reject after a rollback. */
function rollbackRiskFinding(cv: KubeObject): Finding | undefined {
  const target = previousMinorEntry(cv);
  if (!target) return undefined;
  const enabled = stringsAt(cv, 'status', 'capabilities', 'enabledCapabilities');
  const prediction = predictRejection(enabled, target.version);
  if (prediction.rejected.length === 0) return undefined;
  const cvRef = refOf(cv);
  return {
    id: findingId(ID, cvRef, `rollback-${target.version}`),
    detector: ID,
    severity: 'info',
    subject: cvRef,
    basis: 'predicted',
    title: `A rollback to ${target.version} would freeze ClusterVersion status`,
    summary:
      `The ${prediction.targetRelease} ClusterVersion CRD does not accept ${prediction.rejected.join(', ')}, which are ` +
      `enabled now. After a rollback to ${target.version} the API server would reject every status write of the ` +
      'cluster-version operator and ClusterVersion status would freeze silently.',
    evidence: [
      {
        kind: 'field',
        label: 'Enabled capabilities the target CRD rejects',
        ref: cvRef,
        path: 'status.capabilities.enabledCapabilities',
        value: prediction.rejected,
      },
      {
        kind: 'field',
        label: `${prediction.targetRelease} CRD enum`,
        path: 'status.capabilities.enabledCapabilities[]',
        value: [...(prediction.supported ?? [])],
      },
      ...(prediction.message
        ? [{ kind: 'field' as const, label: 'The answer every status write would get', value: prediction.message }]
        : []),
    ],
    remediation: [
      {
        title: 'Review the rollback plan before rolling back',
        command: `oc get clusterversion version -o jsonpath='{.status.capabilities.enabledCapabilities}'`,
      },
      { title: 'Cluster capabilities', docUrl: CAPABILITIES_DOC },
    ],
  };
}

function detect(snapshot: Snapshot, ctx: DetectorContext): DetectorOutput {
  const cv = clusterVersionOf(snapshot);
  if (!cv) return { findings: [], samples: { rejectedValues: null, staleSeconds: null } };
  const featureSet = asString(dig(findObject(snapshot, 'featuregates', 'cluster'), 'spec', 'featureSet'));
  const crd = selectInstalledCrd(objectsOf(snapshot, 'customresourcedefinitions'), featureSet);
  const violations = crd ? violationsAgainstCrd(cv, crd) : [];
  const c = corroboration(cv, snapshot, ctx);
  const cvRef = refOf(cv);
  const findings: Finding[] = [];
  if (crd && violations.length) {
    findings.push(enumFinding(cv, crd, violations, c));
  } else if (c.logs.length) {
    findings.push({
      id: findingId(ID, cvRef, 'rejected'),
      detector: ID,
      severity: 'warning',
      subject: cvRef,
      title: 'ClusterVersion status writes are being rejected',
      summary:
        `The cluster-version operator logs "is invalid" rejections of its status writes, though no capability ` +
        `value is outside the ${crd ? 'installed' : 'unseen'} CRD enum. ${c.notes.join(' ')}`.trim(),
      evidence: c.evidence,
      remediation: remediation(cv, stringsAt(cv, 'status', 'capabilities', 'enabledCapabilities')),
      ...(c.last.at ? { since: c.last.at } : {}),
    });
  } else if (c.lagging && c.stale) {
    findings.push({
      id: findingId(ID, cvRef, 'stale'),
      detector: ID,
      severity: 'warning',
      subject: cvRef,
      title: 'ClusterVersion status is not being updated',
      summary: c.notes.join(' '),
      evidence: c.evidence,
      remediation: [
        remediation(cv, [])[0],
        { title: 'Check the cluster-version operator pod', command: `oc -n ${CVO_NAMESPACE} get pods -o wide` },
      ],
      ...(c.last.at ? { since: c.last.at } : {}),
    });
  }
  if (findings.length === 0) {
    const risk = rollbackRiskFinding(cv);
    if (risk) findings.push(risk);
  }
  return {
    findings,
    samples: {
      rejectedValues: crd ? new Set(violations.map((v) => v.value)).size : null,
      staleSeconds: c.staleSeconds,
    },
  };
}

/**
 * Detector B. Emits, on subject ClusterVersion `version`:
 * - `status-write-rejection:ClusterVersion//version:enum` (critical): capability values outside the installed CRD's
 *   enum, with the exact 422 message, CVO log lines and staleness as corroboration; "are being rejected" (since the
 *   last accepted write) once logs or staleness show it, else "will be rejected" (basis `predicted`);
 * - `…:rejected` (warning): CVO logs rejections but no capability value explains them;
 * - `…:stale` (warning): observedGeneration behind generation and no CVO status write for > `statusStaleMinutes`;
 * - `…:rollback-<version>` (info, basis `predicted`): nothing is rejected now, but a rollback to the newest history
 *   entry of an older minor would re-apply a CRD whose enum rejects capabilities enabled now.
 * Samples: `rejectedValues` (distinct values outside the enum; `null` without the CRD), `staleSeconds` (since the
 * CVO's last status write; `null` when unknown).
 */
export const statusWriteRejection: Detector = {
  id: ID,
  title: 'ClusterVersion status-write rejection',
  insight: {
    impactType: 'Update Stalled',
    scopeType: 'ControlPlane',
    referenceUrl: 'https://github.com/openshift/api/pull/1624',
  }, // the CVO can no longer report (or act on) update progress
  needs: [
    { resource: 'clusterversions', name: 'version' },
    { resource: 'customresourcedefinitions', name: CLUSTERVERSION_CRD },
    { resource: 'featuregates', name: 'cluster' },
  ],
  logs: [
    {
      namespace: CVO_NAMESPACE,
      labelSelector: 'k8s-app=cluster-version-operator',
      container: CVO_CONTAINER,
      tailLines: 200,
    },
  ],
  detect,
};
