import type { FindingDto } from '@/lib/api/dto';
import { CopyButton } from '@/components/common/CopyButton';
import { safeHttpUrl } from '@/lib/view/safe-url';
import styles from './cluster.module.css';

/** Remediation steps with copyable commands; doc links only when they are plain http(s) URLs. */
export function RemediationList({ steps, findingId }: { steps: FindingDto['remediation']; findingId: string }) {
  if (steps.length === 0) return <p className="muted">No remediation steps for this finding.</p>;
  return (
    <ol className={styles.remediation} data-testid="remediation">
      {steps.map((step, i) => {
        const href = safeHttpUrl(step.docUrl);
        const cmdId = `cmd-${findingId}-${i}`.replace(/[^A-Za-z0-9_-]/g, '_');
        return (
          <li key={i}>
            <p>{step.title}</p>
            {step.command ? (
              <div className={styles.command}>
                <pre className={styles.pre} id={cmdId} tabIndex={0} aria-label={`Command for ${step.title}`}>
                  <code>{step.command}</code>
                </pre>
                <CopyButton text={step.command} label="Copy command" describedBy={cmdId} />
              </div>
            ) : null}
            {href ? (
              <p>
                <a href={href} target="_blank" rel="noreferrer noopener">
                  Documentation<span className="visually-hidden"> for {step.title}</span>
                </a>
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
