// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterUpdates, fleetUpdates } from '@/lib/cluster/update-durations';
import { historyQueries } from '@/lib/queries/history-queries';
import { UpdateDurationsPanel } from './UpdateDurationsPanel';

afterEach(cleanup);

const H = (hours: number) => new Date(Date.UTC(2026, 10, 20) + hours * 3_600_000).toISOString();
const cluster = (id: string, hours: number | null) => ({
  clusterId: id,
  clusterName: id,
  history: [
    {
      version: '4.16.9',
      state: hours === null ? 'Partial' : 'Completed',
      startedTime: H(10),
      completionTime: hours === null ? null : H(10 + hours),
      image: 'a',
    },
    { version: '4.15.30', state: 'Completed', startedTime: H(0), completionTime: H(1), image: 'b' },
  ],
});

function renderWith(sources: ReturnType<typeof cluster>[]) {
  const now = Date.parse(H(16));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const spans = sources.flatMap((source) => clusterUpdates(source, now));
  client.setQueryData(
    historyQueries.fleetUpdates().queryKey,
    fleetUpdates(spans, () => [], null, now),
  );
  render(
    <QueryClientProvider client={client}>
      <UpdateDurationsPanel />
    </QueryClientProvider>,
  );
}

describe('the fleet page’s update durations', () => {
  it('shows per from→to how many clusters updated with p50/p95, and the ongoing update slower than p95', () => {
    renderWith([cluster('a', 1), cluster('b', 2), cluster('c', 3), cluster('slow', null)]);
    const row = screen.getByRole('row', { name: /4\.15\.30 → 4\.16\.9/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['4', '3', '1', '2h', '3h']);
    const slow = screen.getByTestId('slow-updates');
    expect(slow.textContent).toContain('slow: 4.15.30 → 4.16.9, running 6h');
    expect(screen.getByRole('link', { name: 'Every update as CSV' }).getAttribute('href')).toBe(
      '/api/fleet/updates?format=csv',
    );
  });

  it('says when no ongoing update is slower than p95', () => {
    renderWith([cluster('a', 1), cluster('b', 2)]);
    expect(screen.getByTestId('slow-updates-none').textContent).toBe(
      'No ongoing update is slower than the p95 of its versions.',
    );
  });
});
