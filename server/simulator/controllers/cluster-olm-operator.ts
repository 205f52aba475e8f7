import type { KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import {
  CATALOGD_DEPLOYMENT,
  CATALOGD_NAMESPACE,
  OPERATOR_CONTROLLER_DEPLOYMENT,
  OPERATOR_CONTROLLER_NAMESPACE,
} from '../objects/olm';
import { SECOND } from '../objects/time';
import { mutateObject } from '../objects/write';
import type { ClusterOperatorFleet } from './cluster-operators';

interface DeploymentStatusView {
  replicas?: number;
  availableReplicas?: number;
  updatedReplicas?: number;
  conditions?: { type: string; status: string }[];
}

const WATCHED = [
  { namespace: CATALOGD_NAMESPACE, name: CATALOGD_DEPLOYMENT, prefix: 'CatalogdDeploymentCatalogdControllerManager' },
  {
    namespace: OPERATOR_CONTROLLER_NAMESPACE,
    name: OPERATOR_CONTROLLER_DEPLOYMENT,
    prefix: 'OperatorControllerDeploymentOperatorControllerControllerManager',
  },
];

/** The OLMv1 components cluster-olm-operator deploys. */
export type OlmComponent = 'catalogd' | 'operator-controller';

/** The parts of a Deployment spec the operator owns and puts back when anyone else changes them. */
const OWNED_SPEC_FIELDS = ['replicas', 'selector', 'strategy', 'template', 'minReadySeconds'] as const;

/**
 * cluster-olm-operator: applies the catalogd and operator-controller Deployments from its manifests and reconciles
 * them (a hand edit such as `oc scale` is reverted at the next sync, so a lasting change goes through the
 * manifests), and derives the `olm` ClusterOperator's Available/Progressing from them, with library-go's
 * deployment-controller condition wording.
 */
export class ClusterOlmOperator {
  private readonly manifests = new Map<OlmComponent, KubeObject>();

  constructor(
    private readonly context: ScenarioContext,
    private readonly fleet: ClusterOperatorFleet,
    manifests: Partial<Record<OlmComponent, KubeObject>> = {},
  ) {
    for (const [component, manifest] of Object.entries(manifests) as [OlmComponent, KubeObject][]) {
      this.manifests.set(component, structuredClone(manifest));
    }
  }

  /**
   * New manifests for a component (a new operator release or its configuration): the operator applies them at
   * once and keeps the Deployment on them from then on.
   */
  applyManifest(component: OlmComponent, change: (manifest: KubeObject) => KubeObject): KubeObject | undefined {
    const current = this.manifests.get(component);
    if (!current) return undefined;
    this.manifests.set(component, change(structuredClone(current)));
    return this.reconcile(component);
  }

  /** Puts the owned spec fields of a component's Deployment back to the manifest; returns the live Deployment. */
  private reconcile(component: OlmComponent): KubeObject | undefined {
    const manifest = this.manifests.get(component);
    if (!manifest) return undefined;
    const wanted = manifest.spec as Record<string, unknown>;
    const live = this.context.client.get('deployments', manifest.metadata.name, manifest.metadata.namespace);
    if (!live) return undefined;
    const spec = live.spec as Record<string, unknown>;
    if (OWNED_SPEC_FIELDS.every((field) => JSON.stringify(spec[field]) === JSON.stringify(wanted[field]))) return live;
    const { name, namespace } = manifest.metadata;
    return mutateObject(this.context.as('cluster-olm-operator'), 'deployments', name, namespace, (deployment) => {
      const next = deployment.spec as Record<string, unknown>;
      for (const field of OWNED_SPEC_FIELDS) {
        if (wanted[field] === undefined) delete next[field];
        else next[field] = structuredClone(wanted[field]);
      }
      return deployment;
    });
  }

  /** Starts the resync loop (library-go's informers react within seconds; the simulated operator polls). */
  start(intervalMs = 10 * SECOND): void {
    this.context.clock.setInterval(() => this.sync(), intervalMs);
  }

  /** One reconcile: the Deployments back to the manifests, then the `olm` ClusterOperator conditions. */
  sync(): void {
    for (const component of this.manifests.keys()) this.reconcile(component);
    if (!this.fleet.names.includes('olm')) return;
    const unavailable: string[] = [];
    const progressing: string[] = [];
    for (const watched of WATCHED) {
      const deployment = this.context.client.get('deployments', watched.name, watched.namespace);
      if (!deployment) continue;
      const spec = deployment.spec as { replicas?: number };
      const status = (deployment.status ?? {}) as DeploymentStatusView;
      if ((status.availableReplicas ?? 0) === 0) {
        unavailable.push(`${watched.prefix}Available: Waiting for Deployment`);
      }
      if ((status.updatedReplicas ?? 0) < (spec.replicas ?? 1) || (status.replicas ?? 0) > (spec.replicas ?? 1)) {
        progressing.push(`${watched.prefix}Progressing: Waiting for Deployment to deploy pods`);
      }
    }
    const available = unavailable.length === 0;
    this.fleet.setCondition(
      'olm',
      available
        ? { type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well' }
        : {
            type: 'Available',
            status: 'False',
            reason: `${WATCHED[0].prefix}_Deploying`,
            message: unavailable.join('\n'),
          },
    );
    this.fleet.setCondition(
      'olm',
      progressing.length === 0
        ? { type: 'Progressing', status: 'False', reason: 'AsExpected', message: 'All is well' }
        : {
            type: 'Progressing',
            status: 'True',
            reason: `${WATCHED[0].prefix}_Deploying`,
            message: progressing.join('\n'),
          },
    );
  }
}
