import type { FindingDto } from '@/lib/api/dto';
import { detectorSpec } from '@/lib/charts/detectors';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import { evidenceCounts, findingRowSummary } from '@/lib/view/finding-row';
import { formatDateTime } from '@/lib/view/format-time';
import { safeHttpUrl } from '@/lib/view/safe-url';
import styles from './cluster.module.css';

/**
 * Findings, already sorted worst first; each opens its evidence drawer. Rows are keyed by finding id. A row says what
 * is wrong in one line (title, the summary's first sentence without long lists, the evidence by kind); the drawer
 * holds the full summary and evidence.
 */
export function FindingsList({
  findings,
  selectedId,
  onSelect,
}: {
  findings: readonly FindingDto[];
  selectedId: string | null;
  onSelect: (f: FindingDto) => void;
}) {
  if (findings.length === 0) return <p data-testid="no-findings">No findings: every detector passed.</p>;
  return (
    <ul className={styles.findings} data-testid="findings">
      {findings.map((f) => (
        <li
          key={f.id}
          className={styles.finding}
          data-testid="finding"
          data-finding-id={f.id}
          data-detector={f.detector}
          data-severity={f.severity}
          aria-current={f.id === selectedId ? 'true' : undefined}
        >
          <SeverityBadge severity={f.severity} />
          <div className={styles.findingBody}>
            <h3 className={styles.findingTitle}>
              {f.basis === 'predicted' ? (
                <span className="muted" data-testid="finding-predicted">
                  Prediction:{' '}
                </span>
              ) : null}
              {f.title}
            </h3>
            <p className={styles.findingSummary} data-testid="finding-summary">
              {findingRowSummary(f.summary)}
            </p>
            <p className="muted">
              {detectorSpec(f.detector)?.title ?? f.detector} · {f.subject.kind}{' '}
              {f.subject.namespace ? `${f.subject.namespace}/` : ''}
              {f.subject.name}
              {f.since ? ` · since ${formatDateTime(f.since)}` : ''}
              {f.evidence.length > 0 ? (
                <>
                  {' · '}
                  <span data-testid="finding-evidence-counts" title="Evidence in the drawer, by kind">
                    {evidenceCounts(f.evidence)}
                  </span>
                </>
              ) : null}
            </p>
            {f.insight ? (
              <p className={`muted ${styles.insight}`} data-testid="finding-insight">
                <span title="Impact level, as oc adm upgrade status reports it">{f.insight.level}</span>
                {' · '}
                <span title="Impact type">{f.insight.impactType}</span>
                {' · '}
                <span title="Scope">{f.insight.scope.type}</span>
                {safeHttpUrl(f.insight.referenceUrl) ? (
                  <>
                    {' · '}
                    <a href={safeHttpUrl(f.insight.referenceUrl)!} target="_blank" rel="noreferrer noopener">
                      reference
                    </a>
                  </>
                ) : null}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            className="btn"
            onClick={() => onSelect(f)}
            aria-expanded={f.id === selectedId}
            aria-controls={f.id === selectedId ? 'evidence-drawer' : undefined}
          >
            Evidence<span className="visually-hidden"> for {f.title}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
