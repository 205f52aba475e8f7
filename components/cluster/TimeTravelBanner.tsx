import { formatDateTime } from '@/lib/view/format-time';
import styles from './cluster.module.css';

/**
 * Says, before anything else on the page, that it shows the cluster as of `at` and not live, and what is as of then
 * (findings from the history, charts where their series reach) and what is not (evidence, header, update views).
 */
export function TimeTravelBanner({
  at,
  chartsReach,
  onLive,
}: {
  at: number;
  /** From when the charts hold samples (epoch ms), null when none. */
  chartsReach: number | null;
  onLive: () => void;
}) {
  const reached = chartsReach !== null && chartsReach <= at;
  return (
    <div role="status" className={styles.timeTravel} data-testid="time-travel-banner">
      <p>
        <strong>As of {formatDateTime(at)} — not live.</strong>{' '}
        <button type="button" className="btn btn-small" onClick={onLive} data-testid="back-to-live">
          Back to live
        </button>
      </p>
      <ul>
        <li>Findings: those open then, from the finding history (title, severity, opened and resolved times).</li>
        <li>
          Evidence and remediation are not kept in the history (only a digest of the evidence), so a finding of then
          cannot be opened; the live one can, if it is still open.
        </li>
        <li>
          Charts: {reached ? 'their values up to then.' : 'the kept samples do not reach back to then; they are empty.'}
        </li>
        <li>The header, update progress and Before you update show the cluster now and are not shown as of then.</li>
      </ul>
    </div>
  );
}
