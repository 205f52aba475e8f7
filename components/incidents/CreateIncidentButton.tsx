'use client';
import Link from 'next/link';
import { useState } from 'react';
import { createdIncidentSchema, type CreatedIncidentDto } from '@/lib/api/incident-dto';
import { postJson } from '@/lib/queries/post-json';
import { CopyButton } from '@/components/common/CopyButton';

/** "Create incident": freezes the cluster's current view on the server and shows the shareable link. */
export function CreateIncidentButton({ clusterId, timeWindow }: {
  clusterId: string;
  /** The chart window to freeze (cluster time, epoch ms), read at click time. */
  timeWindow: () => { from?: number; to?: number };
}) {
  const [state, setState] = useState<{ status: 'idle' | 'creating' } | { status: 'created'; incident: CreatedIncidentDto } | { status: 'failed'; message: string }>({ status: 'idle' });
  const create = async (): Promise<void> => {
    setState({ status: 'creating' });
    try {
      const incident = await postJson('/api/incidents', { clusterId, ...timeWindow() }, createdIncidentSchema);
      setState({ status: 'created', incident });
    } catch (error) {
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <span className="copy" data-testid="create-incident">
      <button type="button" className="btn" onClick={() => void create()} disabled={state.status === 'creating'}>
        {state.status === 'creating' ? 'Creating incident…' : 'Create incident'}
      </button>
      <span role="status">
        {state.status === 'created' ? (
          <>
            <Link href={state.incident.url} data-testid="incident-link">Incident {state.incident.id}</Link>{' '}
            <CopyButton text={() => new URL(state.incident.url, window.location.href).href} label="Copy incident link" />
          </>
        ) : state.status === 'failed' ? <span className="badge badge-critical">Cannot create incident: {state.message}</span> : null}
      </span>
    </span>
  );
}
