import type { FindingDto } from '@/lib/api/dto';
import { formatDateTime } from '@/lib/view/format-time';
import styles from './cluster.module.css';

type Evidence = FindingDto['evidence'][number];

const refText = (r: Evidence['ref']): string => (r ? `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}` : '');

function valueText(v: Evidence['value']): string {
  if (v === undefined) return '';
  if (Array.isArray(v)) return v.join(', ');
  if (v === null) return 'null';
  return String(v);
}

/** One piece of evidence, rendered by kind. Every string from the cluster is React text, never markup. */
export function EvidenceItem({ item }: { item: Evidence }) {
  return (
    <li className={styles.evidence} data-testid="evidence" data-kind={item.kind}>
      <h4 className={styles.evidenceLabel}>{item.label}</h4>
      {item.ref || item.at ? (
        <p className="muted">
          {refText(item.ref)}{item.container ? ` · container ${item.container}` : ''}{item.at ? ` · ${formatDateTime(item.at)}` : ''}
        </p>
      ) : null}
      {item.path !== undefined || (item.value !== undefined && item.kind !== 'metric') ? (
        <dl className={styles.fieldValue}>
          {item.path !== undefined ? <><dt>Field</dt><dd><code data-testid="evidence-path">{item.path}</code></dd></> : null}
          {item.value !== undefined && item.kind !== 'metric' ? (
            <><dt>Value</dt><dd><code data-testid="evidence-value">{valueText(item.value)}</code></dd></>
          ) : null}
        </dl>
      ) : null}
      {item.kind === 'metric' ? (
        <p data-testid="evidence-metric"><strong>{valueText(item.value)}</strong>{item.unit ? ` ${item.unit}` : ''}</p>
      ) : null}
      {item.lines && item.lines.length > 0 ? (
        <pre className={styles.pre} data-testid="evidence-log" tabIndex={0} aria-label={`${item.label} log lines`}>{item.lines.join('\n')}</pre>
      ) : null}
      {item.excerpt !== undefined ? (
        <pre className={styles.pre} data-testid="evidence-excerpt" tabIndex={0} aria-label={`${item.label} object excerpt`}>
          {JSON.stringify(item.excerpt, null, 2)}
        </pre>
      ) : null}
    </li>
  );
}
