import type { KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import { shortHash } from '../objects/ids';
import { randomSuffix } from '../random';
import { buildPod, ownerRef, podStatus, type ContainerInput } from '../objects/pods';
import { SECOND, iso } from '../objects/time';
import { isHealthy, syncPdbs } from './disruption';

/** How pods of one Deployment come to life. */
export interface ManagedDeploymentOptions {
  namespace: string;
  name: string;
  /** Nodes pods may land on (schedulability is checked by the controller). */
  eligibleNodes: () => string[];
  /** Virtual ms from creation to Ready for a pod of `templateHash` (a rollout may bring a slow image pull). */
  readyAfterMs: (templateHash: string) => number;
  /** Called when a pod becomes Ready / is deleted (catalogd registers its proxy here). */
  onPodReady?: (pod: KubeObject) => void;
  onPodGone?: (pod: KubeObject) => void;
}

interface PodLife {
  createdMs: number;
  readyAtMs: number;
  hash: string;
  node: string;
  state: 'ContainerCreating' | 'Ready';
  ip: string;
  deployment: string;
}

interface DeploymentSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector: { matchLabels: Record<string, string> };
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: { containers: ContainerInput[]; [key: string]: unknown };
  };
}

/** maxSurge / maxUnavailable resolved like the deployment controller (surge rounds up, unavailable down). */
export function rollingBounds(spec: DeploymentSpec): { surge: number; unavailable: number } {
  const replicas = spec.replicas ?? 1;
  if (spec.strategy?.type === 'Recreate') return { surge: 0, unavailable: replicas };
  const resolve = (value: number | string | undefined, fallback: string, up: boolean) => {
    const v = value ?? fallback;
    if (typeof v === 'number') return v;
    const percent = Number(v.replace('%', '')) / 100;
    return up ? Math.ceil(percent * replicas) : Math.floor(percent * replicas);
  };
  const surge = resolve(spec.strategy?.rollingUpdate?.maxSurge, '25%', true);
  let unavailable = resolve(spec.strategy?.rollingUpdate?.maxUnavailable, '25%', false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** The pod-template-hash of a template (stable for equal templates). */
export function templateHashOf(spec: DeploymentSpec): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const hex = shortHash(JSON.stringify(spec.template), 20);
  let out = '';
  for (let i = 0; i < 10; i++) out += alphabet[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % alphabet.length];
  return out;
}

/**
 * A deployment controller plus kubelet for the Deployments it is told to manage: it creates pods (no ReplicaSet
 * objects), moves them to Ready after a delay, rolls templates honouring maxSurge/maxUnavailable, removes terminating
 * pods after their grace period, writes Deployment status, and keeps PDB status current like the disruption
 * controller.
 */
export class DeploymentController {
  private readonly managed: ManagedDeploymentOptions[] = [];
  private readonly lives = new Map<string, PodLife>();
  private readonly pdbNamespaces = new Set<string>();
  private ipCounter = 10;

  constructor(private readonly context: ScenarioContext) {}

  /** Adds a Deployment (already created) to the controller; with `seedReady` its pods exist and are Ready now. */
  manage(options: ManagedDeploymentOptions, seedReady = true): void {
    this.managed.push(options);
    this.pdbNamespaces.add(options.namespace);
    if (!seedReady) return;
    const deployment = this.context.client.get('deployments', options.name, options.namespace);
    if (!deployment) return;
    const spec = deployment.spec as DeploymentSpec;
    const hash = templateHashOf(spec);
    const now = this.context.clock.now();
    for (let i = 0; i < (spec.replicas ?? 1); i++) this.createPod(deployment, spec, hash, options, now, true);
  }

  /** Also keeps PDBs of this namespace current (pods there are not from managed Deployments). */
  watchPdbs(namespace: string): void {
    this.pdbNamespaces.add(namespace);
  }

  /** Starts the reconcile loop. */
  start(tickMs = 4 * SECOND): void {
    this.reconcile();
    this.context.clock.setInterval(() => this.reconcile(), tickMs);
  }

  /** One pass over every managed Deployment, then PDBs of namespaces where something moved. */
  reconcile(): void {
    const busy = new Set<string>();
    for (const options of this.managed) {
      if (this.isQuiet(options)) continue;
      busy.add(options.namespace);
      this.reconcileOne(options);
    }
    const namespaces = [...this.pdbNamespaces].filter(
      (ns) => busy.has(ns) || !this.managed.some((m) => m.namespace === ns) || !this.pdbSynced.has(ns),
    );
    for (const ns of namespaces) this.pdbSynced.add(ns);
    syncPdbs(this.context, namespaces, (pdb, selected) => this.expectedPods(pdb, selected));
  }

  private readonly pdbSynced = new Set<string>();

  /** Nothing to do: spec observed, every known pod Ready and not terminating, and as many as desired. */
  private isQuiet(options: ManagedDeploymentOptions): boolean {
    const deployment = this.context.client.read('deployments', options.name, options.namespace);
    if (!deployment) return true;
    const status = deployment.status as
      | {
          observedGeneration?: number;
          replicas?: number;
          readyReplicas?: number;
          availableReplicas?: number;
          updatedReplicas?: number;
        }
      | undefined;
    const replicas = (deployment.spec as DeploymentSpec).replicas ?? 1;
    if (!status || status.observedGeneration !== deployment.metadata.generation) return false;
    if (
      [status.replicas, status.readyReplicas, status.availableReplicas, status.updatedReplicas].some(
        (count) => count !== replicas,
      )
    )
      return false;
    const prefix = `${options.namespace}/`;
    const known = [...this.lives.entries()].filter(
      ([key, life]) => key.startsWith(prefix) && life.deployment === options.name,
    );
    if (known.length !== replicas) return false;
    return known.every(([key, life]) => {
      if (life.state !== 'Ready') return false;
      const pod = this.context.client.read('pods', key.slice(prefix.length), options.namespace);
      return Boolean(pod && !pod.metadata.deletionTimestamp);
    });
  }

  private expectedPods(pdb: KubeObject, selected: KubeObject[]): number {
    for (const options of this.managed) {
      if (options.namespace !== pdb.metadata.namespace) continue;
      const deployment = this.context.client.get('deployments', options.name, options.namespace);
      if (!deployment) continue;
      const spec = deployment.spec as DeploymentSpec;
      const labels = spec.template.metadata?.labels ?? {};
      const selector =
        (pdb.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels ?? {};
      if (Object.entries(selector).every(([k, v]) => labels[k] === v)) return spec.replicas ?? 1;
    }
    return selected.filter((pod) => !pod.metadata.deletionTimestamp).length;
  }

  private reconcileOne(options: ManagedDeploymentOptions): void {
    const { context } = this;
    const now = context.clock.now();
    const client = context.as('kube-controller-manager');
    const kubelet = context.as('kubelet');
    const deployment = context.client.get('deployments', options.name, options.namespace);
    if (!deployment) return;
    const spec = deployment.spec as DeploymentSpec;
    const replicas = spec.replicas ?? 1;
    const hash = templateHashOf(spec);
    const selector = Object.entries(spec.selector.matchLabels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    let pods = context.client.list('pods', { namespace: options.namespace, labelSelector: selector });

    // kubelet: finish terminations, start containers
    for (const pod of pods) {
      const deletion = pod.metadata.deletionTimestamp;
      const grace =
        ((pod.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30) * SECOND;
      if (deletion && Date.parse(deletion) + Math.min(grace, 10 * SECOND) <= now) {
        kubelet.delete('pods', pod.metadata.name, options.namespace);
        this.lives.delete(`${options.namespace}/${pod.metadata.name}`);
        context.proxy.unregisterPod(options.namespace, pod.metadata.name);
        options.onPodGone?.(pod);
        continue;
      }
      const life = this.lives.get(`${options.namespace}/${pod.metadata.name}`);
      if (life && life.state === 'ContainerCreating' && life.readyAtMs <= now && !deletion) {
        life.state = 'Ready';
        const status = podStatus(pod, 'Ready', {
          scheduledMs: life.createdMs,
          startedMs: life.createdMs + 5 * SECOND,
          readyMs: now,
          podIP: life.ip,
          hostIP: '10.0.0.1',
        });
        kubelet.updateStatus('pods', { ...pod, status });
        options.onPodReady?.(context.client.get('pods', pod.metadata.name, options.namespace) ?? pod);
      }
    }
    pods = context.client.list('pods', { namespace: options.namespace, labelSelector: selector });
    const live = pods.filter((pod) => !pod.metadata.deletionTimestamp);
    const minReadyMs = (spec.minReadySeconds ?? 0) * SECOND;
    const isAvailable = (pod: KubeObject) => {
      if (!isHealthy(pod)) return false;
      const life = this.lives.get(`${options.namespace}/${pod.metadata.name}`);
      return !life || life.readyAtMs + minReadyMs <= now;
    };
    const current = live.filter((pod) => pod.metadata.labels?.['pod-template-hash'] === hash);
    const old = live.filter((pod) => pod.metadata.labels?.['pod-template-hash'] !== hash);
    const { surge, unavailable } = rollingBounds(spec);
    const available = live.filter(isAvailable).length;

    // scale down old pods while keeping replicas - maxUnavailable available
    const minAvailable = Math.max(0, replicas - unavailable);
    const oldByReadiness = [...old].sort((a, b) => Number(isAvailable(a)) - Number(isAvailable(b)));
    let budget = available - minAvailable;
    for (const pod of oldByReadiness) {
      if (isAvailable(pod) && budget <= 0) break;
      if (isAvailable(pod)) budget--;
      this.terminate(pod, now);
    }
    // extra current pods (scale down)
    if (current.length > replicas) for (const pod of current.slice(replicas)) this.terminate(pod, now);
    // scale up current pods up to replicas, total within replicas + maxSurge
    const remainingOld = old.filter((pod) => !this.terminated.has(pod.metadata.name)).length;
    let total = current.length + remainingOld;
    for (let count = current.length; count < replicas && total < replicas + surge; count++, total++) {
      this.createPod(deployment, spec, hash, options, now);
    }

    // Deployment status
    const after = context.client
      .list('pods', { namespace: options.namespace, labelSelector: selector })
      .filter((pod) => !pod.metadata.deletionTimestamp);
    const readyReplicas = after.filter(isHealthy).length;
    const availableReplicas = after.filter(isAvailable).length;
    const updatedReplicas = after.filter((pod) => pod.metadata.labels?.['pod-template-hash'] === hash).length;
    const isUp = availableReplicas >= minAvailable && availableReplicas > 0;
    const complete = updatedReplicas === replicas && availableReplicas === replicas && after.length === replicas;
    const prev =
      (deployment.status as { conditions?: { type: string; status: string; lastTransitionTime: string }[] } | undefined)
        ?.conditions ?? [];
    const keep = (type: string, status: string) => {
      const found = prev.find((c) => c.type === type);
      return found && found.status === status ? found.lastTransitionTime : iso(now);
    };
    const rsName = `${options.name}-${hash}`;
    const status = {
      availableReplicas,
      conditions: [
        {
          type: 'Available',
          status: isUp ? 'True' : 'False',
          reason: isUp ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          message: isUp ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
          lastTransitionTime: keep('Available', isUp ? 'True' : 'False'),
          lastUpdateTime: keep('Available', isUp ? 'True' : 'False'),
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: complete ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
          message: complete
            ? `ReplicaSet "${rsName}" has successfully progressed.`
            : `ReplicaSet "${rsName}" is progressing.`,
          lastTransitionTime: keep('Progressing', 'True'),
          lastUpdateTime: iso(now),
        },
      ],
      observedGeneration: deployment.metadata.generation ?? 1,
      readyReplicas,
      replicas: after.length,
      ...(after.length - availableReplicas > 0 ? { unavailableReplicas: after.length - availableReplicas } : {}),
      updatedReplicas,
    };
    // lastUpdateTime only moves when the Progressing reason does, so an idle Deployment is not rewritten
    const prevProgressing = prev.find((c) => c.type === 'Progressing') as Record<string, unknown> | undefined;
    if (prevProgressing && prevProgressing.reason === status.conditions[1].reason)
      status.conditions[1].lastUpdateTime = prevProgressing.lastUpdateTime as string;
    if (JSON.stringify(status) !== JSON.stringify(deployment.status))
      client.updateStatus('deployments', { ...deployment, status });
    this.terminated.clear();
  }

  private readonly terminated = new Set<string>();

  private terminate(pod: KubeObject, now: number): void {
    this.terminated.add(pod.metadata.name);
    if (pod.metadata.deletionTimestamp) return;
    const client = this.context.as('kube-controller-manager');
    client.update('pods', {
      ...pod,
      metadata: { ...pod.metadata, deletionTimestamp: iso(now), deletionGracePeriodSeconds: 30 },
    });
  }

  private createPod(
    deployment: KubeObject,
    spec: DeploymentSpec,
    hash: string,
    options: ManagedDeploymentOptions,
    now: number,
    ready = false,
  ): void {
    const { context } = this;
    const node = this.pickNode(options);
    if (!node) return;
    const name = `${options.name}-${hash}-${randomSuffix(context.random)}`;
    const rsName = `${options.name}-${hash}`;
    const pod = buildPod({
      name,
      namespace: options.namespace,
      nodeName: node,
      labels: { ...(spec.template.metadata?.labels ?? {}), 'pod-template-hash': hash },
      annotations: spec.template.metadata?.annotations,
      containers: spec.template.spec.containers,
      ownerReferences: [ownerRef('ReplicaSet', rsName, `${deployment.metadata.uid ?? ''}-${hash}`)],
      priorityClassName: 'system-cluster-critical',
      terminationGracePeriodSeconds: 10,
    });
    const ip = `10.128.${Math.floor(this.ipCounter / 250)}.${(this.ipCounter++ % 250) + 2}`;
    const createdMs = ready ? now - 3 * 3600 * SECOND : now;
    pod.status = ready
      ? podStatus(pod, 'Ready', {
          scheduledMs: createdMs,
          startedMs: createdMs + 5 * SECOND,
          readyMs: createdMs + 20 * SECOND,
          podIP: ip,
          hostIP: '10.0.0.1',
        })
      : podStatus(pod, 'ContainerCreating', { scheduledMs: now, hostIP: '10.0.0.1' });
    const created = context.as('kube-controller-manager').create('pods', pod);
    const readyAtMs = ready ? createdMs + 20 * SECOND : now + options.readyAfterMs(hash);
    this.lives.set(`${options.namespace}/${name}`, {
      createdMs,
      readyAtMs,
      hash,
      node,
      state: ready ? 'Ready' : 'ContainerCreating',
      ip,
      deployment: options.name,
    });
    if (ready) options.onPodReady?.(created);
  }

  private pickNode(options: ManagedDeploymentOptions): string | undefined {
    const nodes = options.eligibleNodes().filter((name) => {
      const node = this.context.client.get('nodes', name);
      return node && !(node.spec as { unschedulable?: boolean }).unschedulable;
    });
    if (nodes.length === 0) return undefined;
    const pods = this.context.client
      .list('pods', { namespace: options.namespace })
      .filter((pod) => !pod.metadata.deletionTimestamp);
    const load = (node: string) => pods.filter((pod) => (pod.spec as { nodeName?: string }).nodeName === node).length;
    return [...nodes].sort((a, b) => load(a) - load(b) || nodes.indexOf(a) - nodes.indexOf(b))[0];
  }
}
