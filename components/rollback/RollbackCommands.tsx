import { CopyButton } from '@/components/common/CopyButton';
import styles from './rollback.module.css';

/** The exact commands to run, each copyable, and the reason for every flag. */
export function RollbackCommands({ commands, notes }: { commands: readonly string[]; notes: readonly string[] }) {
  return (
    <div data-testid="rollback-commands">
      {commands.length === 0 ? <p>No command: nothing the CVO would accept fits this situation.</p> : (
        <ol>
          {commands.map((command, i) => (
            <li key={command} className={styles.command}>
              <pre className={styles.pre} id={`rollback-cmd-${i}`} data-testid="rollback-command"><code>{command}</code></pre>
              <CopyButton text={command} label="Copy command" describedBy={`rollback-cmd-${i}`} />
            </li>
          ))}
        </ol>
      )}
      {notes.length > 0 ? <ul className="muted" data-testid="rollback-notes">{notes.map((note) => <li key={note}>{note}</li>)}</ul> : null}
    </div>
  );
}
