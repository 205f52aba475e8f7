'use client';
import Link from 'next/link';
import { useId, useState, type FormEvent } from 'react';
import {
  createdIncidentSchema,
  INCIDENT_NOTE_MAX,
  INCIDENT_TITLE_MAX,
  type CreatedIncidentDto,
} from '@/lib/api/incident-dto';
import { postJson } from '@/lib/queries/post-json';
import { CopyButton } from '@/components/common/CopyButton';
import styles from './incidents.module.css';

type State =
  | { status: 'idle' | 'editing' | 'creating' }
  | { status: 'created'; incident: CreatedIncidentDto }
  | { status: 'failed'; message: string };

/**
 * "Create incident": asks for a title (the worst finding's, editable) and a note, then freezes the cluster's view on
 * the server and shows the shareable link.
 */
export function CreateIncidentButton({
  clusterId,
  defaultTitle,
  timeWindow,
}: {
  clusterId: string;
  /** What the title field starts with; sent only when edited, so the server keeps its own default. */
  defaultTitle: string;
  /** The chart window to freeze (cluster time, epoch ms), read at submit time; the server widens it to the onset. */
  timeWindow: () => { from?: number; to?: number };
}) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const [title, setTitle] = useState(defaultTitle);
  const [note, setNote] = useState('');
  const formId = useId();

  const open = (): void => {
    setTitle(defaultTitle);
    setNote('');
    setState({ status: 'editing' });
  };
  const create = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setState({ status: 'creating' });
    const edited = title.trim() !== defaultTitle.trim();
    const body = { clusterId, ...timeWindow(), ...(edited ? { title } : {}), ...(note.trim() ? { note } : {}) };
    try {
      setState({ status: 'created', incident: await postJson('/api/incidents', body, createdIncidentSchema) });
    } catch (error) {
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };

  // A refused creation keeps the form and what was typed in it.
  const editing = state.status === 'editing' || state.status === 'creating' || state.status === 'failed';
  return (
    <span className="copy" data-testid="create-incident">
      <button
        type="button"
        className="btn"
        onClick={open}
        disabled={editing}
        aria-expanded={editing}
        aria-controls={editing ? formId : undefined}
      >
        Create incident
      </button>
      {editing ? (
        <form
          id={formId}
          className={styles.form}
          aria-label="New incident"
          onSubmit={(e) => void create(e)}
          data-testid="create-incident-form"
        >
          <label>
            Title
            <input
              name="title"
              value={title}
              maxLength={INCIDENT_TITLE_MAX}
              onChange={(e) => setTitle(e.target.value)}
              placeholder={defaultTitle}
            />
          </label>
          <label>
            Note <span className="muted">(what you saw, who is on it; plain text, redacted like the rest)</span>
            <textarea
              name="note"
              rows={4}
              value={note}
              maxLength={INCIDENT_NOTE_MAX}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          <div className={styles.formActions}>
            <button type="submit" className="btn" disabled={state.status === 'creating'}>
              {state.status === 'creating' ? 'Creating incident…' : 'Freeze incident'}
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => setState({ status: 'idle' })}
              disabled={state.status === 'creating'}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <span role="status">
        {state.status === 'created' ? (
          <>
            <Link href={state.incident.url} data-testid="incident-link">
              Incident {state.incident.id}
            </Link>{' '}
            <CopyButton
              text={() => new URL(state.incident.url, window.location.href).href}
              label="Copy incident link"
            />
          </>
        ) : state.status === 'failed' ? (
          <span className="badge badge-critical">Cannot create incident: {state.message}</span>
        ) : null}
      </span>
    </span>
  );
}
