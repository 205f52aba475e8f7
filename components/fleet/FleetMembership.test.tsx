// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetMembershipDto } from '@/lib/api/dto';
import { FleetMembership } from './FleetMembership';

afterEach(cleanup);

describe('FleetMembership', () => {
  it('counts discovered, connected and waiting clusters, names each waiting one with its reason and source errors', () => {
    const membership: FleetMembershipDto = {
      discovered: 22,
      connected: 19,
      synced: 18,
      waiting: [
        {
          id: 'spoke-7',
          name: 'spoke-7',
          discoveredBy: { kind: 'hub', name: 'hub' },
          reason: 'token Secret openshift-update-health/spoke-7-update-health not found',
          since: '2026-11-25T10:00:00Z',
        },
      ],
      sources: [
        { kind: 'kubeconfig', name: '/etc/kubeconfig' },
        {
          kind: 'hub',
          name: '/etc/hub',
          error: { message: 'hub /etc/hub unreachable: ECONNREFUSED', since: '2026-11-25T11:00:00Z' },
        },
      ],
    };
    render(<FleetMembership membership={membership} />);
    expect(screen.getByTestId('membership-discovered').textContent).toBe('22 discovered');
    expect(screen.getByTestId('membership-connected').textContent).toBe('19 connected');
    expect(screen.getByTestId('membership-waiting').textContent).toBe('1 waiting');
    expect(screen.getByTestId('membership-waiting-cluster').textContent).toMatch(
      /spoke-7.*token Secret .*not found — since 2026-11-25 10:00:00 UTC/,
    );
    expect(screen.getAllByTestId('membership-source-error')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toMatch(
      /hub \/etc\/hub: .*ECONNREFUSED \(since 2026-11-25 11:00:00 UTC\)/,
    );
  });

  it('a viewer who may not see waiting clusters gets their number only', () => {
    render(
      <FleetMembership
        membership={{ discovered: 3, connected: 2, synced: 2, waiting: [], waitingHidden: 1, sources: [] }}
      />,
    );
    expect(screen.getByTestId('membership-waiting').textContent).toBe('1 waiting');
    expect(screen.queryByTestId('membership-waiting-cluster')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says how far the first sync is while it runs, and nothing once every cluster is synced', () => {
    const membership: FleetMembershipDto = {
      discovered: 3500,
      connected: 1300,
      synced: 1100,
      waiting: [],
      sources: [],
    };
    const { rerender } = render(
      <FleetMembership membership={membership} progress={{ synced: 1204, total: 3500, done: false }} />,
    );
    expect(screen.getByTestId('membership-sync-progress').textContent).toBe('1,204 of 3,500 clusters synced');
    rerender(<FleetMembership membership={membership} progress={{ synced: 3500, total: 3500, done: true }} />);
    expect(screen.queryByTestId('membership-sync-progress')).toBeNull();
  });

  it('says a source is still listing its clusters, not that the fleet is empty; a failing one shows its error', () => {
    const membership: FleetMembershipDto = {
      discovered: 0,
      connected: 0,
      synced: 0,
      waiting: [],
      sources: [
        { kind: 'hub', name: '/etc/hub:hub', listing: true },
        {
          kind: 'kubeconfig',
          name: 'kubeconfig',
          listing: true,
          error: { message: 'the kubeconfig kubeconfig cannot be read now', since: '2026-11-25T11:00:00Z' },
        },
      ],
    };
    const { rerender } = render(
      <FleetMembership membership={membership} progress={{ synced: 0, total: 0, done: true }} />,
    );
    const listing = screen.getAllByTestId('membership-source-listing');
    expect(listing.map((line) => line.textContent)).toEqual(['Listing clusters from hub /etc/hub:hub…']);
    expect(listing[0].getAttribute('role')).toBe('status');
    expect(screen.getByTestId('membership-source-error').textContent).toMatch(/cannot be read now/);
    rerender(
      <FleetMembership
        membership={{ ...membership, discovered: 3, sources: [{ kind: 'hub', name: '/etc/hub:hub' }] }}
        progress={{ synced: 0, total: 3, done: false }}
      />,
    );
    expect(screen.queryByTestId('membership-source-listing')).toBeNull();
    expect(screen.getByTestId('membership-sync-progress').textContent).toBe('0 of 3 clusters synced');
  });
});
