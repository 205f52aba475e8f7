import type { Condition } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import { setCondition } from '../objects/conditions';
import { OPERATOR_CONTROLLER_NAMESPACE } from '../objects/olm';
import { MINUTE, SECOND } from '../objects/time';
import { mutateStatus } from '../objects/write';
import { zapLine } from './klog';

/** Field manager of operator-controller's status writes. */
export const OPERATOR_CONTROLLER_MANAGER = 'operator-controller';

/** The failing install: the root cause, and the transient cleanup errors of the immediate requeues. */
export interface InstallFailure {
  extension: string;
  rootCause: string;
  /** Messages of the requeued attempts while the rolled-back release is still being cleaned up. */
  transient: string[];
}

/** Backoff before step `n` (0-based): 10 s doubling, capped at 10 min. */
export function installBackoffMs(step: number): number {
  return Math.min(10 * MINUTE, 10 * SECOND * 2 ** step);
}

/** Delay of each immediate requeue triggered by the previous status write. */
export const REQUEUE_DELAYS_MS = [1100, 1200] as const;

/**
 * operator-controller reconciling a ClusterExtension whose install keeps failing: each backoff step makes one
 * attempt that hits the root cause (the provisioner then rolls back), and the status change requeues the object at
 * once, so the next attempts hit transient cleanup errors. Every attempt writes Progressing=True/Retrying with its
 * error, so the condition ends on the transient message.
 */
export class FailingInstallReconciler {
  private step = 0;
  /** Virtual times of every status write, for cadence checks. */
  readonly writes: number[] = [];

  constructor(
    private readonly context: ScenarioContext,
    private readonly failure: InstallFailure,
    private readonly logPod?: string,
  ) {}

  /** Starts the first step after `delayMs`. */
  start(delayMs: number): void {
    this.context.clock.setTimeout(() => this.runStep(), delayMs);
  }

  private runStep(): void {
    const attempts = [this.failure.rootCause, ...this.failure.transient];
    let offset = 0;
    attempts.forEach((message, index) => {
      if (index > 0) offset += REQUEUE_DELAYS_MS[(index - 1) % REQUEUE_DELAYS_MS.length];
      this.context.clock.setTimeout(() => this.attempt(message), offset);
    });
    const backoff = installBackoffMs(this.step++);
    this.context.clock.setTimeout(() => this.runStep(), offset + backoff);
  }

  private attempt(message: string): void {
    const now = this.context.clock.now();
    const client = this.context.as(OPERATOR_CONTROLLER_MANAGER);
    mutateStatus<{ conditions?: Condition[] }>(
      client,
      'clusterextensions',
      this.failure.extension,
      undefined,
      (status, object) => {
        const generation = object.metadata.generation ?? 1;
        let conditions = setCondition(
          status.conditions,
          { type: 'Progressing', status: 'True', reason: 'Retrying', message, observedGeneration: generation },
          now,
        );
        conditions = setCondition(
          conditions,
          {
            type: 'Installed',
            status: 'False',
            reason: 'Failed',
            message: 'No bundle installed',
            observedGeneration: generation,
          },
          now,
        );
        return { ...status, conditions };
      },
    );
    this.writes.push(now);
    if (this.logPod) {
      this.context.logs.append(
        OPERATOR_CONTROLLER_NAMESPACE,
        this.logPod,
        'manager',
        zapLine(now, 'ERROR', 'Reconciler error', {
          controller: 'clusterextension',
          controllerGroup: 'olm.operatorframework.io',
          controllerKind: 'ClusterExtension',
          ClusterExtension: { name: this.failure.extension },
          namespace: '',
          name: this.failure.extension,
          error: message,
        }),
      );
    }
  }
}
