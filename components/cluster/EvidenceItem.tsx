import type { FindingDto } from '@/lib/api/dto';
import { formatDateTime } from '@/lib/view/format-time';
import { collapseRepeats } from '@/lib/view/collapse-repeats';
import { groupByFailing, LONG_LIST } from '@/lib/view/evidence-groups';
import styles from './cluster.module.css';

type Evidence = FindingDto['evidence'][number];

const refText = (r: Evidence['ref']): string => (r ? `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}` : '');

function valueText(v: Evidence['value']): string {
  if (v === undefined) return '';
  if (Array.isArray(v)) return v.join(', ');
  if (v === null) return 'null';
  return String(v);
}

/** A long list: how many and the ones with a failing pod first, the whole list behind a disclosure. */
function LongList({ values, failingPods }: { values: readonly string[]; failingPods: readonly string[] }) {
  const { failing, rest } = groupByFailing(values, failingPods);
  return (
    <div data-testid="evidence-long-list">
      <p>
        <strong>{values.length} items</strong>
        {failing.length > 0 ? (
          <>
            ; with a crash-looping or failing pod: <code data-testid="evidence-failing">{failing.join(', ')}</code>
          </>
        ) : null}
      </p>
      <details>
        <summary>
          All {values.length}
          {failing.length > 0 ? ' (failing first)' : ''}
        </summary>
        <code data-testid="evidence-value">{[...failing, ...rest].join(', ')}</code>
      </details>
    </div>
  );
}

/** Log lines with consecutive repeats folded into one line with a count and the first and last time. */
function LogLines({ lines, label }: { lines: readonly string[]; label: string }) {
  const runs = collapseRepeats(lines);
  const folded = lines.length - runs.length;
  const text = runs
    .map((r) => (r.count > 1 ? `[×${r.count}${r.first ? `, ${r.first} … ${r.last}` : ''}] ${r.text}` : r.line))
    .join('\n');
  return (
    <>
      {folded > 0 ? (
        <p className="muted" data-testid="evidence-repeats">
          {lines.length} lines, {runs.length} distinct: repeated lines are shown once with their count.
        </p>
      ) : null}
      <pre className={styles.pre} data-testid="evidence-log" tabIndex={0} aria-label={`${label} log lines`}>
        {text}
      </pre>
    </>
  );
}

/** One piece of evidence, rendered by kind. Every string from the cluster is React text, never markup. */
export function EvidenceItem({ item, failingPods = [] }: { item: Evidence; failingPods?: readonly string[] }) {
  const long = Array.isArray(item.value) && item.value.length > LONG_LIST;
  return (
    <li className={styles.evidence} data-testid="evidence" data-kind={item.kind}>
      <h4 className={styles.evidenceLabel}>{item.label}</h4>
      {item.ref || item.at ? (
        <p className="muted">
          {refText(item.ref)}
          {item.container ? ` · container ${item.container}` : ''}
          {item.at ? ` · ${formatDateTime(item.at)}` : ''}
        </p>
      ) : null}
      {item.path !== undefined || (item.value !== undefined && item.kind !== 'metric') ? (
        <dl className={styles.fieldValue}>
          {item.path !== undefined ? (
            <>
              <dt>Field</dt>
              <dd>
                <code data-testid="evidence-path">{item.path}</code>
              </dd>
            </>
          ) : null}
          {long ? (
            <>
              <dt>Value</dt>
              <dd>
                <LongList values={item.value as string[]} failingPods={failingPods} />
              </dd>
            </>
          ) : null}
          {!long && item.value !== undefined && item.kind !== 'metric' ? (
            <>
              <dt>Value</dt>
              <dd>
                <code data-testid="evidence-value">{valueText(item.value)}</code>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {item.kind === 'metric' ? (
        <p data-testid="evidence-metric">
          <strong>{valueText(item.value)}</strong>
          {item.unit ? ` ${item.unit}` : ''}
        </p>
      ) : null}
      {item.lines && item.lines.length > 0 ? <LogLines lines={item.lines} label={item.label} /> : null}
      {item.excerpt !== undefined ? (
        <pre
          className={styles.pre}
          data-testid="evidence-excerpt"
          tabIndex={0}
          aria-label={`${item.label} object excerpt`}
        >
          {JSON.stringify(item.excerpt, null, 2)}
        </pre>
      ) : null}
    </li>
  );
}
