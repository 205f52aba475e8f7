// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { incidentSchema, type IncidentDto } from '@/lib/api/incident-dto';
import { authQueries } from '@/lib/queries/auth-queries';
import { rollbackQueries } from '@/lib/queries/rollback-queries';
import { IncidentView } from './IncidentView';

// The app router is not there outside Next: the page reads its URL state (no query here) and never navigates.
vi.mock('next/navigation', () => ({
  useSearchParams: () => new URLSearchParams(),
  usePathname: () => '/incidents/x',
  useRouter: () => ({ replace: vi.fn(), push: vi.fn() }),
}));

afterEach(cleanup);

const NOTE = 'Paged at 10:20 <b>CVO</b> restarting.\n<img src=x onerror="window.__xss=1">';

const CAPTURED = Date.parse('2026-11-22T11:14:00Z');
const CLUSTER = {
  id: 'cross-minor-rollback',
  name: 'cross-minor-rollback',
  version: '4.13.40',
  desiredVersion: '4.13.40',
};
const WORST_TITLE = 'The next ClusterVersion status write will be rejected';
const SOURCES = ['clusterversions', 'clusteroperators', 'nodes'].map((resource) => ({
  resource,
  status: 'synced' as const,
  since: '2026-11-22T09:00:10Z',
  lastSyncAt: '2026-11-22T11:13:50Z',
}));

/** What the server stores for the cross-minor-rollback story frozen two hours after the rejected write began. */
function frozenIncident(title?: string): IncidentDto {
  return incidentSchema.parse({
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    createdAt: '2026-11-22T11:14:05.000Z',
    createdBy: null,
    author: { kind: 'local' },
    ...(title ? { title, titleFindingId: null } : {}),
    note: NOTE,
    cluster: { ...CLUSTER, clusterID: null },
    capturedAt: CAPTURED,
    window: { from: Date.parse('2026-11-22T09:03:00Z'), to: CAPTURED },
    health: {
      cluster: { ...CLUSTER, channel: null, history: [] },
      findings: [
        {
          id: 'status-write-rejection:ClusterVersion//version:enum',
          detector: 'status-write-rejection',
          severity: 'critical',
          subject: { kind: 'ClusterVersion', name: 'version' },
          title: WORST_TITLE,
          summary: 'capability enum',
          evidence: [],
          remediation: [],
          since: '2026-11-22T09:13:00Z',
        },
      ],
      updateProgress: null,
      sources: SOURCES,
    },
    series: {
      clusterId: 'cross-minor-rollback',
      now: CAPTURED,
      transitions: [],
      samples: {
        'status-write-rejection': [0, 1, 2, 3].map((h) => ({
          t: CAPTURED - h * 3_600_000,
          values: { rejectedValues: h < 3 ? 4 : 0 },
        })),
      },
    },
    objects: [],
    redaction: { rules: [], entries: [] },
  });
}

function renderIncident(incident: IncidentDto) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(rollbackQueries.incident(incident.id).queryKey, incident);
  // A dashboard without login, as the server would answer it.
  client.setQueryData(authQueries.info().queryKey, { mode: 'none', issuer: null });
  return render(
    <QueryClientProvider client={client}>
      <IncidentView id={incident.id} />
    </QueryClientProvider>,
  );
}

describe('IncidentView', () => {
  it('states what was live as of the capture, never as if synced now', () => {
    const incident = frozenIncident();
    renderIncident(incident);
    const sources = screen.getByTestId('sources').querySelector('summary')!.textContent!;
    expect(sources).toBe(`${incident.health.sources.length} sources synced as of 2026-11-22 11:14:00 UTC`);
    expect(document.body.textContent).not.toMatch(/All \d+ sources synced/);
    // Source ages are stated as instants, not "ago" from a clock that kept running.
    expect(screen.getByTestId('sources').textContent).not.toMatch(/\bago\b/);
    expect(screen.getByTestId('update-as-of').textContent).toContain('as of 2026-11-22 11:14:00 UTC');
    expect(screen.getByRole('heading', { name: /^Findings/ }).textContent).toContain('as of 2026-11-22 11:14:00 UTC');
    expect(screen.getByTestId('incident-frozen').textContent).toContain('as of 2026-11-22 11:14:00 UTC');
  });

  it("shows title, note and author as text, the note's markup inert", () => {
    const incident = frozenIncident('Rollback <i>stuck</i> at 4.13');
    renderIncident(incident);
    expect(screen.getByTestId('incident-title').textContent).toBe('Rollback <i>stuck</i> at 4.13');
    const note = screen.getByTestId('incident-note');
    expect(note.textContent).toBe(NOTE);
    expect(note.querySelector('b, img')).toBeNull();
    expect(screen.getByTestId('incident-title').querySelector('i')).toBeNull();
    expect(screen.getByTestId('incident-author').textContent).toBe('local operator');
    expect(document.body.textContent).toContain('Rollback <i>stuck</i> at 4.13');
    expect((window as { __xss?: number }).__xss).toBeUndefined();
  });

  it('opens the charts on the whole frozen window, from before the onset', () => {
    const incident = frozenIncident();
    renderIncident(incident);
    expect(screen.getByRole('button', { name: 'All', pressed: true })).toBeTruthy();
    expect(screen.getByTestId('incident-banner').textContent).toContain('from 2026-11-22 09:03:00 UTC');
  });

  it("an incident without a title shows the worst finding's", () => {
    renderIncident(frozenIncident());
    expect(screen.getByTestId('incident-title').textContent).toBe(WORST_TITLE);
  });
});
