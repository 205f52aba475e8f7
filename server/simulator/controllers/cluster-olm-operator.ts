import type { ScenarioContext } from '../types';
import { CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE, OPERATOR_CONTROLLER_DEPLOYMENT, OPERATOR_CONTROLLER_NAMESPACE } from '../objects/olm';
import { SECOND } from '../objects/time';
import type { ClusterOperatorFleet } from './cluster-operators';

interface DeploymentStatusView {
  replicas?: number;
  availableReplicas?: number;
  updatedReplicas?: number;
  conditions?: { type: string; status: string }[];
}

const WATCHED = [
  { namespace: CATALOGD_NAMESPACE, name: CATALOGD_DEPLOYMENT, prefix: 'CatalogdDeploymentCatalogdControllerManager' },
  { namespace: OPERATOR_CONTROLLER_NAMESPACE, name: OPERATOR_CONTROLLER_DEPLOYMENT, prefix: 'OperatorControllerDeploymentOperatorControllerControllerManager' },
];

/**
 * cluster-olm-operator: derives the `olm` ClusterOperator's Available/Progressing from the catalogd and
 * operator-controller Deployments, with library-go's deployment-controller condition wording.
 */
export class ClusterOlmOperator {
  constructor(
    private readonly context: ScenarioContext,
    private readonly fleet: ClusterOperatorFleet,
  ) {}

  /** Starts the resync loop. */
  start(intervalMs = 10 * SECOND): void {
    this.context.clock.setInterval(() => this.sync(), intervalMs);
  }

  /** One reconcile of the `olm` ClusterOperator conditions. */
  sync(): void {
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
    this.fleet.setCondition('olm', available
      ? { type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well' }
      : { type: 'Available', status: 'False', reason: `${WATCHED[0].prefix}_Deploying`, message: unavailable.join('\n') });
    this.fleet.setCondition('olm', progressing.length === 0
      ? { type: 'Progressing', status: 'False', reason: 'AsExpected', message: 'All is well' }
      : { type: 'Progressing', status: 'True', reason: `${WATCHED[0].prefix}_Deploying`, message: progressing.join('\n') });
  }
}
