import type { ClusterHealthDto } from '@/lib/api/dto';
import type { RollbackPlanDto } from '@/lib/api/rollback-dto';
import { trackRollback } from '@/lib/rollback/track-rollback';
import { CheckStatusBadge } from './CheckStatusBadge';
import styles from './rollback.module.css';

/** Live tracker: each step turns green as the cluster moves, computed from the plan at start and live health. */
export function RollbackTracker({ planAtStart, health }: { planAtStart: RollbackPlanDto; health: ClusterHealthDto }) {
  const { steps, finished } = trackRollback(planAtStart, health);
  return (
    <div data-testid="rollback-tracker" data-finished={finished}>
      <ol className={styles.steps} aria-live="polite">
        {steps.map((step) => (
          <li
            key={step.id}
            className={styles.step}
            data-testid="tracker-step"
            data-step-id={step.id}
            data-status={step.status}
          >
            <CheckStatusBadge status={step.status} />
            <div>
              <p>
                <strong>{step.title}</strong>
              </p>
              <p className="muted">{step.detail}</p>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
