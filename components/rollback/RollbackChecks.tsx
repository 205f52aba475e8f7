import type { RollbackCheckDto } from '@/lib/api/rollback-dto';
import { EvidenceItem } from '@/components/cluster/EvidenceItem';
import { RemediationList } from '@/components/cluster/RemediationList';
import { CheckStatusBadge } from './CheckStatusBadge';
import styles from './rollback.module.css';

/** The pre-flight checks, each with its evidence (rendered like findings' evidence) and what to do. */
export function RollbackChecks({ checks }: { checks: readonly RollbackCheckDto[] }) {
  return (
    <ol className={styles.checks} data-testid="rollback-checks">
      {checks.map((check) => (
        <li
          key={check.id}
          className={styles.check}
          data-testid="rollback-check"
          data-check-id={check.id}
          data-status={check.status}
        >
          <div className={styles.checkHead}>
            <CheckStatusBadge status={check.status} />
            <h3>{check.title}</h3>
          </div>
          <p className={styles.detail}>{check.detail}</p>
          {check.evidence.length > 0 || check.remediation.length > 0 ? (
            <details>
              <summary>
                Evidence and remediation<span className="visually-hidden"> for {check.title}</span>
              </summary>
              <ul className={styles.evidence}>
                {check.evidence.map((e, i) => (
                  <EvidenceItem key={`${e.label}-${i}`} item={e} />
                ))}
              </ul>
              {check.remediation.length > 0 ? (
                <RemediationList steps={check.remediation} findingId={`rollback-${check.id}`} />
              ) : null}
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
