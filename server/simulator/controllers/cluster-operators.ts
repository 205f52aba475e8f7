import type { Condition } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import {
  buildClusterOperator,
  healthyOperatorConditions,
  operatorManager,
  operatorVersions,
} from '../objects/cluster-operators';
import { setCondition } from '../objects/conditions';
import { iso } from '../objects/time';
import { createWithStatus, mutateStatus } from '../objects/write';

interface OperatorStatus {
  conditions?: Condition[];
  versions?: { name: string; version: string }[];
  relatedObjects?: unknown[];
  extension?: unknown;
}

/**
 * The ClusterOperators of a cluster and the operators behind them: each status write is made by the operator's own
 * field manager, as the real operators write their ClusterOperator.
 */
export class ClusterOperatorFleet {
  constructor(
    private readonly context: ScenarioContext,
    readonly names: string[],
  ) {}

  /** Creates every ClusterOperator at `version`, healthy since `sinceMs`. */
  createAll(version: string, sinceMs: number, clusterVersionUid?: string): void {
    for (const name of this.names) {
      const object = buildClusterOperator(name, clusterVersionUid);
      object.status = {
        conditions: healthyOperatorConditions(iso(sinceMs)),
        extension: null,
        relatedObjects: [{ group: '', name: `openshift-${name}`, resource: 'namespaces' }],
        versions: operatorVersions(name, version),
      };
      createWithStatus(this.context.as(operatorManager(name)), 'clusteroperators', object);
    }
  }

  /** The version the operator reports for itself (`versions[name=operator]`). */
  versionOf(name: string): string | undefined {
    const live = this.context.client.get('clusteroperators', name);
    const status = (live?.status ?? {}) as OperatorStatus;
    return status.versions?.find((entry) => entry.name === 'operator')?.version;
  }

  /** The operator reports that it now runs `version` (and is no longer progressing). */
  setVersion(name: string, version: string): void {
    const now = this.context.clock.now();
    mutateStatus<OperatorStatus>(
      this.context.as(operatorManager(name)),
      'clusteroperators',
      name,
      undefined,
      (status) => {
        status.versions = operatorVersions(name, version);
        status.conditions = setCondition(
          status.conditions,
          { type: 'Progressing', status: 'False', reason: 'AsExpected', message: 'All is well' },
          now,
        );
        return status;
      },
    );
  }

  /** The operator starts rolling out its operands for `version` (Progressing=True). */
  setProgressing(name: string, version: string): void {
    const now = this.context.clock.now();
    mutateStatus<OperatorStatus>(
      this.context.as(operatorManager(name)),
      'clusteroperators',
      name,
      undefined,
      (status) => {
        status.conditions = setCondition(
          status.conditions,
          { type: 'Progressing', status: 'True', reason: 'Upgrading', message: `Working towards ${version}` },
          now,
        );
        return status;
      },
    );
  }

  /** Sets one condition of an operator. */
  setCondition(name: string, condition: Condition): void {
    const now = this.context.clock.now();
    mutateStatus<OperatorStatus>(
      this.context.as(operatorManager(name)),
      'clusteroperators',
      name,
      undefined,
      (status) => {
        status.conditions = setCondition(status.conditions, condition, now);
        return status;
      },
    );
  }

  /** Names of operators whose `operator` version is not `version`. */
  notAt(version: string): string[] {
    return this.names.filter((name) => this.versionOf(name) !== version);
  }
}
