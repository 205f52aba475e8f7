import type { IncidentDto } from '@/lib/api/incident-dto';
import styles from '@/components/cluster/cluster.module.css';

/** The frozen evidence objects (redacted) and the redaction report, as plain text. */
export function IncidentAppendix({ incident }: { incident: IncidentDto }) {
  const { objects, redaction } = incident;
  return (
    <>
      <section aria-labelledby="objects-title" className={styles.section}>
        <h2 id="objects-title">
          Evidence objects <span className="muted">({objects.length})</span>
        </h2>
        {objects.length === 0 ? (
          <p className="muted">No object was referenced by a finding.</p>
        ) : (
          <ul className={styles.evidenceList}>
            {objects.map((object, i) => {
              const metadata = (object.metadata ?? {}) as { name?: string; namespace?: string };
              return (
                <li key={i} className={styles.evidence} data-testid="incident-object">
                  <details>
                    <summary>
                      {String(object.kind)} {metadata.namespace ? `${metadata.namespace}/` : ''}
                      {metadata.name}
                    </summary>
                    <pre className={styles.pre}>
                      <code>{JSON.stringify(object, null, 2)}</code>
                    </pre>
                  </details>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="redaction-title" className={styles.section}>
        <h2 id="redaction-title">
          Redaction report <span className="muted">({redaction.entries.length} values replaced)</span>
        </h2>
        <ul className="muted">
          {redaction.rules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
        {redaction.entries.length > 0 ? (
          <table className="table" data-testid="redaction-report">
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">Reason</th>
                <th scope="col">Placeholder</th>
              </tr>
            </thead>
            <tbody>
              {redaction.entries.map((entry, i) => (
                <tr key={i}>
                  <td>
                    <code>{entry.path}</code>
                  </td>
                  <td>{entry.reason}</td>
                  <td>
                    <code>{entry.placeholder}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </>
  );
}
