'use client';
import Link from 'next/link';
import { useState } from 'react';
import { apiErrorSchema } from '@/lib/api/dto';
import { createdIncidentSchema, type CreatedIncidentDto } from '@/lib/api/incident-dto';

type State =
  | { status: 'idle' | 'creating' }
  | { status: 'created'; incident: CreatedIncidentDto }
  | { status: 'failed'; message: string };

async function create(resultId: string): Promise<CreatedIncidentDto> {
  const response = await fetch(`/api/must-gather/${encodeURIComponent(resultId)}/incident`, {
    method: 'POST',
    headers: { accept: 'application/json' },
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = apiErrorSchema.safeParse(body);
    throw new Error(error.success ? error.data.error.message : `the server answered HTTP ${response.status}`);
  }
  return createdIncidentSchema.parse(body);
}

/** "Create incident" for a must-gather analysis: freezes it durably (it outlives the in-memory result). */
export function MustGatherIncidentButton({ resultId }: { resultId: string }) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const onClick = async () => {
    setState({ status: 'creating' });
    try {
      setState({ status: 'created', incident: await create(resultId) });
    } catch (error) {
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <span className="copy" data-testid="create-incident">
      <button
        type="button"
        className="btn btn-small"
        onClick={() => void onClick()}
        disabled={state.status === 'creating'}
      >
        {state.status === 'creating' ? 'Creating incident…' : 'Create incident'}
      </button>
      <span role="status">
        {state.status === 'created' ? (
          <Link href={state.incident.url} data-testid="incident-link">
            Incident {state.incident.id}
          </Link>
        ) : null}
        {state.status === 'failed' ? (
          <span className="badge badge-critical">Cannot create incident: {state.message}</span>
        ) : null}
      </span>
    </span>
  );
}
