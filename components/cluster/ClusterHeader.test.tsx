// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterInfoDto, UpdateStateDto } from '@/lib/api/dto';
import { ClusterHeader } from './ClusterHeader';

const cluster: ClusterInfoDto = {
  id: 'c',
  name: 'c',
  version: '4.16.9',
  desiredVersion: '4.16.9',
  channel: 'stable-4.16',
  history: [],
};

const state = (over: Partial<UpdateStateDto>): UpdateStateDto => ({
  phase: 'updating-workers',
  label: 'Updating workers to 4.16.9',
  unknownReason: null,
  targetVersion: '4.16.9',
  fromVersion: '4.15.30',
  rollingBack: false,
  installed: false,
  controlPlane: { percent: 100, done: true },
  pools: [{ name: 'worker', updated: 1, total: 3, unknown: 0 }],
  estimate: {
    remainingSeconds: null,
    note: 'unknown: worker pools have no estimate (nodes drain and reboot one by one)',
  },
  frozen: null,
  ...over,
});

afterEach(() => cleanup());

describe('ClusterHeader', () => {
  it('names the worker phase with the workers\' share, never "100 % Completed" or "0s left"', () => {
    render(<ClusterHeader cluster={cluster} state={state({})} sources={[]} now={0} />);
    const line = screen.getByTestId('update-state');
    expect(line.dataset.phase).toBe('updating-workers');
    expect(screen.getByTestId('update-percent').textContent).toBe('worker nodes 33 %');
    expect(line.textContent).toContain('worker 1/3');
    expect(line.textContent).not.toMatch(/Completed|0s left/);
  });

  it('announces a frozen ClusterVersion status with what is observed instead, and no progress bar', () => {
    render(
      <ClusterHeader
        cluster={{ ...cluster, version: '4.14.27' }}
        sources={[]}
        now={0}
        state={state({
          phase: 'status-frozen',
          label: 'Rolling back to 4.13.40 · ClusterVersion status frozen',
          rollingBack: true,
          targetVersion: '4.13.40',
          frozen: { since: '2026-11-22T09:13:00Z', reason: 'The next ClusterVersion status write will be rejected' },
          operatorVersions: [
            { version: '4.13.40', operators: 27 },
            { version: '4.14.27', operators: 6 },
          ],
          nodeVersions: [{ version: '4.13.40', nodes: 6 }],
        })}
      />,
    );
    expect(screen.getByTestId('status-frozen').textContent).toContain(
      'ClusterVersion status frozen since 2026-11-22 09:13:00 UTC — values below are stale.',
    );
    expect(screen.getByTestId('desired-version').textContent).toBe('4.13.40 (requested)');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('update-state').textContent).toContain(
      'observed: ClusterOperators at 4.13.40 (27), 4.14.27 (6) · nodes at 4.13.40 (6)',
    );
  });

  it('says why the state is unknown instead of "Not updating"', () => {
    render(
      <ClusterHeader
        cluster={cluster}
        sources={[]}
        now={0}
        state={state({
          phase: 'unknown',
          label: 'Update state unknown: you may not read clusterversions',
          unknownReason: 'you may not read clusterversions',
          controlPlane: null,
          pools: [],
        })}
      />,
    );
    expect(screen.getByTestId('update-state').textContent).toBe(
      'Update state unknown: you may not read clusterversions',
    );
  });
});
