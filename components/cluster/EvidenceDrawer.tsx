'use client';
import { useEffect, useRef } from 'react';
import type { FindingDto } from '@/lib/api/dto';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import { EvidenceItem } from './EvidenceItem';
import { RemediationList } from './RemediationList';
import { failingPods, orderEvidence, shortenLists } from '@/lib/view/evidence-groups';
import styles from './cluster.module.css';

/**
 * Side drawer with a finding's evidence and remediation. It is driven by the finding id (from the URL) and given
 * the latest version of that finding, so live updates refresh its content without closing it; a finding that is
 * no longer reported stays open with a note.
 */
export function EvidenceDrawer({
  findingId,
  finding,
  resolved,
  onClose,
}: {
  findingId: string;
  finding: FindingDto | undefined;
  resolved: boolean;
  onClose: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, [findingId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <aside
      id="evidence-drawer"
      className={styles.drawer}
      aria-labelledby="evidence-title"
      data-testid="evidence-drawer"
      data-finding-id={findingId}
    >
      <div className={styles.drawerHead}>
        <h2 id="evidence-title" ref={headingRef} tabIndex={-1}>
          {finding ? finding.title : 'Finding not found'}
        </h2>
        <button type="button" className="btn" onClick={onClose}>
          Close<span className="visually-hidden"> evidence</span>
        </button>
      </div>
      {!finding ? (
        <p>
          No finding with id <code>{findingId}</code> is reported for this cluster.
        </p>
      ) : (
        <>
          {resolved ? (
            <p className={styles.note} role="status">
              This finding is no longer reported; showing its last known state.
            </p>
          ) : null}
          <p data-testid="evidence-summary">
            <SeverityBadge severity={finding.severity} /> {shortenLists(finding.summary)}
          </p>
          {shortenLists(finding.summary) !== finding.summary ? (
            <details>
              <summary>Full summary</summary>
              <p>{finding.summary}</p>
            </details>
          ) : null}
          <p className="muted">
            Subject: {finding.subject.kind} {finding.subject.namespace ? `${finding.subject.namespace}/` : ''}
            {finding.subject.name}
          </p>
          <h3>Remediation</h3>
          <RemediationList steps={finding.remediation} findingId={finding.id} />
          <h3>Evidence</h3>
          {finding.evidence.length === 0 ? (
            <p className="muted">No evidence attached.</p>
          ) : (
            <ul className={styles.evidenceList}>
              {orderEvidence(finding.evidence).map((e, i) => (
                <EvidenceItem key={`${e.kind}-${e.label}-${i}`} item={e} failingPods={failingPods(finding.evidence)} />
              ))}
            </ul>
          )}
        </>
      )}
    </aside>
  );
}
