'use client';
import { useState } from 'react';
import { CopyButton } from '@/components/common/CopyButton';
import styles from './rollback.module.css';

/**
 * The exact commands to run, each copyable, and the reason for every flag. While the plan is blocked (`risks`
 * lists the blocking checks) the commands are held back until the user acknowledges those risks by name.
 */
export function RollbackCommands({
  commands,
  notes,
  risks = [],
}: {
  commands: readonly string[];
  notes: readonly string[];
  /** Titles of the blocking checks; empty when the plan can proceed. */
  risks?: readonly string[];
}) {
  const [acknowledged, setAcknowledged] = useState<string | null>(null);
  // The acknowledgement holds for exactly these risks: a plan that blocks on something else asks again.
  const riskKey = risks.join('\n');
  const held = risks.length > 0 && acknowledged !== riskKey && commands.length > 0;
  return (
    <div data-testid="rollback-commands">
      {risks.length > 0 && commands.length > 0 ? (
        <div className={styles.hold} role="group" aria-labelledby="commands-hold-title" data-testid="commands-hold">
          <p id="commands-hold-title">
            <strong>The plan is blocked.</strong> Running these commands now means accepting:
          </p>
          <ul>
            {risks.map((risk) => (
              <li key={risk}>{risk}</li>
            ))}
          </ul>
          <label>
            <input
              type="checkbox"
              checked={!held}
              data-testid="acknowledge-risks"
              onChange={(event) => setAcknowledged(event.target.checked ? riskKey : null)}
            />{' '}
            I have read these {risks.length === 1 ? 'risk' : `${risks.length} risks`} and accept them; show the commands
          </label>
        </div>
      ) : null}
      {commands.length === 0 ? (
        <p>No command: nothing the CVO would accept fits this situation.</p>
      ) : held ? (
        <p className="muted" data-testid="commands-held">
          Commands are hidden until you acknowledge the risks above.
        </p>
      ) : (
        <ol>
          {commands.map((command, i) => (
            <li key={command} className={styles.command}>
              <pre
                className={styles.pre}
                id={`rollback-cmd-${i}`}
                data-testid="rollback-command"
                tabIndex={0}
                aria-label={`Command ${i + 1}`}
              >
                <code>{command}</code>
              </pre>
              <CopyButton text={command} label="Copy command" describedBy={`rollback-cmd-${i}`} />
            </li>
          ))}
        </ol>
      )}
      {notes.length > 0 ? (
        <ul className="muted" data-testid="rollback-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
