// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateProgressDto, UpdateStateDto } from '@/lib/api/dto';
import { UpdateProgressSection } from './UpdateProgressSection';

const node = (name: string) => ({
  name,
  assessment: 'Outdated',
  phase: 'Pending',
  version: '',
  estimate: '?',
  message: '',
});

/** A fresh install read from a must-gather without MachineConfigs: oc calls its nodes Pending, version `?`. */
const progress: UpdateProgressDto = {
  updating: true,
  controlPlane: {
    assessment: 'Completed',
    targetVersion: '4.8.11',
    previousVersion: null,
    completionPercent: 100,
    operators: { updated: 33, updating: 0, waiting: 0, total: 33 },
    health: { healthy: 33, unavailable: 0, degraded: 0 },
    durationSeconds: 1800,
    estimatedRemainingSeconds: 0,
  },
  workerPools: [
    {
      name: 'worker',
      assessment: 'Pending',
      completionPercent: 0,
      updatedNodes: 0,
      totalNodes: 3,
      nodes: [node('w-0'), node('w-1'), node('w-2')],
    },
  ],
  insights: [],
};

const state: UpdateStateDto = {
  phase: 'idle',
  label: 'Installed 4.8.11',
  unknownReason: null,
  targetVersion: '4.8.11',
  fromVersion: null,
  rollingBack: false,
  installed: true,
  controlPlane: { percent: 100, done: true },
  pools: [{ name: 'worker', updated: 0, total: 3, unknown: 3 }],
  estimate: { remainingSeconds: null, note: '' },
  frozen: null,
};

afterEach(() => cleanup());

describe('UpdateProgressSection', () => {
  it('shows nodes of unknown version as unknown, not "Outdated", and their pool as unknown, not "Pending 0/3"', () => {
    render(<UpdateProgressSection progress={progress} state={state} />);
    const pool = screen.getByTestId('pool-row');
    expect(pool.textContent).toContain('Unknown (node versions not known)');
    expect(pool.textContent).toContain('0 / 3 (3 unknown)');
    expect(pool.textContent).not.toContain('Pending');
    const rows = within(screen.getByTestId('nodes-table')).getAllByRole('row').slice(1);
    for (const row of rows) {
      expect(row.textContent).toContain('Unknown (version not known)');
      expect(row.textContent).not.toContain('Outdated');
    }
  });

  it('says why the update state is unknown', () => {
    render(
      <UpdateProgressSection
        progress={null}
        state={{
          ...state,
          phase: 'unknown',
          label: 'Update state unknown: you may not read clusterversions',
          unknownReason: 'you may not read clusterversions',
          controlPlane: null,
          pools: [],
        }}
      />,
    );
    expect(screen.getByTestId('update-progress').textContent).toBe(
      'Update state unknown: you may not read clusterversions.',
    );
  });
});
