import type { Condition, KubeObject } from '@/lib/k8s/types';
import { ApiStatusError, type ScenarioContext, type SimClient } from '../types';
import { installCrd, loadCrd } from '../crds';
import { clusterVersionStatus, historyEntry, type HistoryEntry } from '../objects/cluster-version';
import { queryMonitoring } from '../monitoring/thanos-querier';
import { evaluateGraph, updateGraphFor, type EvaluatedGraph } from '../objects/update-graph';
import { setCondition } from '../objects/conditions';
import { shortHash } from '../objects/ids';
import { minorOf, releaseImage } from '../objects/releases';
import { SECOND } from '../objects/time';
import type { ClusterOperatorFleet } from './cluster-operators';
import { klogLine } from './klog';

/** Namespace of the cluster-version operator. */
export const CVO_NAMESPACE = 'openshift-cluster-version';
/** Container name of the CVO pod. */
export const CVO_CONTAINER = 'cluster-version-operator';
/** Field manager of every CVO write. */
export const CVO_MANAGER = 'cluster-version-operator';
/** Status resync interval of the simulated CVO (the real statusInterval is 15 s). */
export const CVO_RESYNC_MS = 15 * SECOND;
/** Manifests in a release payload, for the "N of M done" message. */
const PAYLOAD_MANIFESTS = 887;

/** How the CVO walks an update. */
export interface UpdatePlan {
  target: string;
  /** Virtual ms each ClusterOperator takes from Progressing to reporting the target version. */
  stepMs: number;
  /** ClusterOperators another simulated controller moves to the target (the CVO only waits on them). */
  externallyUpdated?: string[];
  /** Stop after this many operators reached the target (a stalled update). */
  stallAfter?: number;
  /** Operators that start updating but never reach the target; the CVO stops there and waits on them. */
  stuck?: string[];
  /** ClusterVersion CRD release applied from the new payload shortly after the update starts (default: target minor). */
  crdRelease?: string;
  /** Called once every operator reports the target version and history is Completed. */
  onCompleted?: () => void;
  /** Called when the operator at this index starts updating. */
  onOperatorStarted?: (name: string, index: number) => void;
}

interface CvoState {
  desired: string;
  history: HistoryEntry[];
  conditions: Condition[];
  capabilitiesVersion: string;
  observedGeneration: number;
}

/**
 * The simulated cluster-version operator: it alone writes ClusterVersion status (through /status as
 * `cluster-version-operator`), walks ClusterOperators through an update, re-applies the payload's ClusterVersion CRD,
 * and logs every failed sync in its pod log the way the real operator does (`cvo.go ... Error handling ...`).
 */
export class SimulatedClusterVersionOperator {
  private readonly client: SimClient;
  private state: CvoState;
  private plan?: UpdatePlan;
  private readonly plans = new Map<string, UpdatePlan>();
  private nextIndex = 0;
  private stepTimer?: () => void;
  private completedAt?: number;
  private graph?: EvaluatedGraph;
  /** Status writes the API server rejected, with the time of each. */
  readonly rejections: { atMs: number; message: string }[] = [];

  constructor(
    private readonly context: ScenarioContext,
    private readonly fleet: ClusterOperatorFleet,
    private readonly pod: { name: string } | undefined,
    initial: { version: string; history: HistoryEntry[]; generation: number },
  ) {
    this.client = context.as(CVO_MANAGER);
    const since = initial.history[0]?.completionTime ?? initial.history[0]?.startedTime;
    this.state = {
      desired: initial.version,
      history: initial.history,
      capabilitiesVersion: initial.version,
      observedGeneration: initial.generation,
      conditions: steadyConditions(initial.version, since ?? ''),
    };
  }

  /** Registers the plan to follow when spec.desiredUpdate asks for `plan.target`. */
  expectUpdate(plan: UpdatePlan): void {
    this.plans.set(plan.target, plan);
  }

  /** Writes the initial status and starts the resync loop. */
  start(): void {
    this.sync();
    this.context.clock.setInterval(() => this.sync(), CVO_RESYNC_MS);
  }

  /** True once the current plan's update completed. */
  get completed(): boolean {
    return this.completedAt !== undefined;
  }

  /** One sync: notice spec changes, compute status, write it; log the outcome. */
  sync(): void {
    const now = this.context.clock.now();
    const live = this.client.read('clusterversions', 'version');
    if (!live) return;
    this.log(
      'I',
      'cvo.go:699',
      `Started syncing cluster version "${CVO_NAMESPACE}/version", spec changes, status, and payload (${goTime(now)})`,
    );
    const wanted = (live.spec as { desiredUpdate?: { version?: string } }).desiredUpdate?.version;
    if (wanted && wanted !== this.state.desired) this.begin(wanted, now);
    this.refreshProgress(now);
    this.retrieveUpdates((live.spec as { channel?: string }).channel ?? '', now);
    this.syncUpgradeable(now);
    const status = clusterVersionStatus({
      desiredVersion: this.state.desired,
      history: this.state.history,
      conditions: this.state.conditions,
      observedGeneration: live.metadata.generation ?? 1,
      capabilitiesVersion: this.state.capabilitiesVersion,
      versionHash: `${shortHash(`hash:${this.state.desired}`, 11)}=`,
      graph: this.graph,
    });
    try {
      if (JSON.stringify(status) !== JSON.stringify(live.status))
        this.client.updateStatus('clusterversions', { ...live, status });
      this.state.observedGeneration = live.metadata.generation ?? 1;
    } catch (error) {
      if (!(error instanceof ApiStatusError)) throw error;
      this.rejections.push({ atMs: now, message: error.message });
      this.log('I', 'cvo.go:668', `Error handling ${CVO_NAMESPACE}/version: ${error.message}`);
    }
    this.log(
      'I',
      'cvo.go:701',
      `Finished syncing cluster version "${CVO_NAMESPACE}/version" (${(8 + (now % 97) / 10).toFixed(3)}ms)`,
    );
  }

  /**
   * Asks the update service for the updates of the desired version in `channel` and evaluates each conditional
   * update's risks against the cluster's monitoring; RetrievedUpdates says whether the service answered.
   */
  private retrieveUpdates(channel: string, now: number): void {
    const answer = updateGraphFor(this.state.desired, channel);
    if (!answer.ok) {
      this.graph = undefined;
      this.setCondition({ type: 'RetrievedUpdates', status: 'False', reason: answer.reason, message: answer.message });
      return;
    }
    this.setCondition({ type: 'RetrievedUpdates', status: 'True', reason: '', message: '' });
    const query = (promql: string) => queryMonitoring(this.context.proxy, promql);
    this.graph = evaluateGraph(answer.updates, query, isoSeconds(now), this.graph?.conditionalUpdates);
  }

  /**
   * The CVO's clusterOperatorsUpgradeable check: ClusterOperators with Upgradeable=False make the ClusterVersion
   * Upgradeable=False with their reason and message; with none, the condition is absent.
   */
  private syncUpgradeable(now: number): void {
    const notUpgradeable = this.client.readList('clusteroperators').flatMap((co) => {
      const conditions = (co.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
      const condition = conditions.find((c) => c.type === 'Upgradeable');
      return condition?.status === 'False' ? [{ name: co.metadata.name, condition }] : [];
    });
    if (notUpgradeable.length === 0) {
      this.state.conditions = this.state.conditions.filter((c) => c.type !== 'Upgradeable');
      return;
    }
    const line = (name: string, condition: Condition, withReason: boolean) => {
      const why = withReason ? `${condition.reason}: ${condition.message}` : condition.message;
      return `Cluster operator ${name} should not be upgraded between minor versions: ${why}`;
    };
    const [first] = notUpgradeable;
    this.state.conditions = setCondition(
      this.state.conditions,
      notUpgradeable.length === 1
        ? {
            type: 'Upgradeable',
            status: 'False',
            reason: first.condition.reason ?? '',
            message: line(first.name, first.condition, false),
          }
        : {
            type: 'Upgradeable',
            status: 'False',
            reason: 'ClusterOperatorsNotUpgradeable',
            message:
              'Multiple cluster operators should not be upgraded between minor versions:\n* ' +
              notUpgradeable.map((n) => line(n.name, n.condition, true)).join('\n* '),
          },
      now,
    );
  }

  private begin(target: string, now: number): void {
    const plan = this.plans.get(target) ?? { target, stepMs: 20 * SECOND };
    this.plan = plan;
    this.state.desired = target;
    this.completedAt = undefined;
    this.nextIndex = 0;
    if (this.state.history[0]?.state === 'Partial')
      this.state.history[0].completionTime = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
    this.state.history = [historyEntry(target, now), ...this.state.history];
    this.state.conditions = setCondition(
      this.state.conditions,
      {
        type: 'ReleaseAccepted',
        status: 'True',
        reason: 'PayloadLoaded',
        message: `Payload loaded version="${target}" image="${releaseImage(target)}" architecture="amd64"`,
      },
      now,
    );
    this.log('I', 'sync_worker.go:468', `Notify the sync worker that new work is available`);
    this.log('I', 'payload.go:210', `Loading updatepayload from "/etc/cvo/updatepayloads/${shortHash(target, 22)}"`);
    {
      const release = plan.crdRelease ?? minorOf(target);
      this.context.clock.setTimeout(() => {
        installCrd(this.client, loadCrd('ClusterVersion', release));
        this.log(
          'I',
          'sync_worker.go:1014',
          `Running sync for customresourcedefinition "clusterversions.config.openshift.io" (2 of ${PAYLOAD_MANIFESTS})`,
        );
        this.log(
          'I',
          'sync_worker.go:1034',
          `Done syncing for customresourcedefinition "clusterversions.config.openshift.io" (2 of ${PAYLOAD_MANIFESTS})`,
        );
      }, 20 * SECOND);
    }
    this.stepTimer?.();
    this.stepTimer = this.context.clock.setTimeout(() => this.step(), plan.stepMs);
  }

  /** Moves the next ClusterOperator: Progressing now, at the target version half a step later. */
  private step(): void {
    const plan = this.plan;
    if (!plan) return;
    const names = this.fleet.names;
    if (plan.stallAfter !== undefined && this.nextIndex >= plan.stallAfter) return;
    if (this.nextIndex >= names.length) return;
    const index = this.nextIndex++;
    const name = names[index];
    plan.onOperatorStarted?.(name, index);
    const n = Math.round(((index + 1) / names.length) * PAYLOAD_MANIFESTS * 0.97);
    const external = plan.externallyUpdated?.includes(name);
    if (plan.stuck?.includes(name)) {
      this.fleet.setProgressing(name, plan.target);
      this.log('I', 'sync_worker.go:1014', `Running sync for clusteroperator "${name}" (${n} of ${PAYLOAD_MANIFESTS})`);
      return;
    }
    this.log('I', 'sync_worker.go:1014', `Running sync for clusteroperator "${name}" (${n} of ${PAYLOAD_MANIFESTS})`);
    if (!external) {
      this.fleet.setProgressing(name, plan.target);
      this.context.clock.setTimeout(() => {
        this.fleet.setVersion(name, plan.target);
        this.log(
          'I',
          'sync_worker.go:1034',
          `Done syncing for clusteroperator "${name}" (${n} of ${PAYLOAD_MANIFESTS})`,
        );
      }, plan.stepMs / 2);
    }
    this.stepTimer = this.context.clock.setTimeout(() => this.step(), plan.stepMs);
  }

  private refreshProgress(now: number): void {
    const plan = this.plan;
    if (!plan || this.completedAt !== undefined) return;
    const names = this.fleet.names;
    const pending = this.fleet.notAt(plan.target);
    const done = names.length - pending.length;
    if (pending.length === 0) {
      this.completedAt = now;
      this.state.history[0] = { ...this.state.history[0], state: 'Completed', completionTime: isoSeconds(now) };
      if (minorOf(plan.target) > minorOf(this.state.capabilitiesVersion)) this.state.capabilitiesVersion = plan.target;
      this.state.conditions = setCondition(
        this.state.conditions,
        { type: 'Available', status: 'True', reason: '', message: `Done applying ${plan.target}` },
        now,
      );
      this.state.conditions = setCondition(
        this.state.conditions,
        { type: 'Failing', status: 'False', reason: '', message: '' },
        now,
      );
      this.state.conditions = setCondition(
        this.state.conditions,
        { type: 'Progressing', status: 'False', reason: '', message: `Cluster version is ${plan.target}` },
        now,
      );
      this.log('I', 'sync_worker.go:563', `Payload for cluster version ${plan.target} synced`);
      plan.onCompleted?.();
      return;
    }
    const started = Math.min(this.nextIndex, names.length);
    const waiting = pending.filter((name) => names.indexOf(name) < started);
    const m = PAYLOAD_MANIFESTS;
    const n = Math.min(m - 1, Math.round((done / names.length) * m * 0.97) + 3);
    const percent = Math.floor((n / m) * 100);
    const waitingText = waiting.length ? `, waiting on ${waiting.slice(0, 3).join(', ')}` : '';
    this.state.conditions = setCondition(
      this.state.conditions,
      {
        type: 'Progressing',
        status: 'True',
        reason: waiting.length > 1 ? 'ClusterOperatorsUpdating' : waiting.length === 1 ? 'ClusterOperatorUpdating' : '',
        message: `Working towards ${plan.target}: ${n} of ${m} done (${percent}% complete)${waitingText}`,
      },
      now,
    );
  }

  /** Sets a ClusterVersion condition the next sync writes (Failing, Upgradeable ...). */
  setCondition(condition: Condition): void {
    this.state.conditions = setCondition(this.state.conditions, condition, this.context.clock.now());
  }

  private log(severity: 'I' | 'E', source: string, message: string): void {
    if (!this.pod) return;
    const now = this.context.clock.now();
    this.context.logs.append(
      CVO_NAMESPACE,
      this.pod.name,
      CVO_CONTAINER,
      klogLine(severity, now, source, message, (now * 7919) % 1000),
    );
  }
}

function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function goTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.(\d{3})Z$/, '.$1000000 +0000 UTC');
}

/** Conditions of a settled cluster at `version`. */
export function steadyConditions(version: string, since: string): Condition[] {
  return [
    { type: 'RetrievedUpdates', status: 'True', reason: '', message: '', lastTransitionTime: since },
    {
      type: 'ImplicitlyEnabledCapabilities',
      status: 'False',
      reason: 'AsExpected',
      message: 'Capabilities match configured spec',
      lastTransitionTime: since,
    },
    {
      type: 'ReleaseAccepted',
      status: 'True',
      reason: 'PayloadLoaded',
      message: `Payload loaded version="${version}" image="${releaseImage(version)}" architecture="amd64"`,
      lastTransitionTime: since,
    },
    { type: 'Available', status: 'True', reason: '', message: `Done applying ${version}`, lastTransitionTime: since },
    { type: 'Failing', status: 'False', reason: '', message: '', lastTransitionTime: since },
    {
      type: 'Progressing',
      status: 'False',
      reason: '',
      message: `Cluster version is ${version}`,
      lastTransitionTime: since,
    },
  ];
}

/** The ClusterVersion object's uid, for ClusterOperator owner references. */
export function clusterVersionUid(object: KubeObject | undefined): string | undefined {
  return object?.metadata.uid;
}
