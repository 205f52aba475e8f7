// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateRecommendationsDto, UpdateTargetDto } from '@/lib/api/recommend-dto';
import type { UpdateStateDto } from '@/lib/api/dto';
import { BeforeUpdateSection } from './BeforeUpdateSection';

const XSS = '<img src=x onerror="window.__xss=1">';

const target = (version: string, extra: Partial<UpdateTargetDto> = {}): UpdateTargetDto => ({
  version,
  image: `quay.io/openshift-release-dev/ocp-release@sha256:${'0'.repeat(64)}`,
  recommended: true,
  recommendedStatus: 'True',
  conditional: false,
  risks: [],
  predictions: [
    { check: 'catalog-drain', status: 'pass', title: 'Catalog PodDisruptionBudgets allow drains', detail: 'ok' },
  ],
  ...extra,
});

const recommendations: UpdateRecommendationsDto = {
  currentVersion: '4.18.12',
  channel: 'stable-4.18',
  availableChannels: ['stable-4.18', 'stable-4.19'],
  upstream: null,
  updates: [
    target('4.19.4', {
      recommended: false,
      recommendedStatus: 'False',
      reason: 'HighNodeStatusReportFrequency',
      message: 'm',
      conditional: true,
      risks: [
        {
          name: 'HighNodeStatusReportFrequency',
          message: `load ${XSS}`,
          url: 'javascript:alert(1)',
          matchingRules: ['Always'],
        },
      ],
      predictions: [
        { check: 'catalog-drain', status: 'block', title: 'Node drains will block on ns/pdb', detail: 'refused' },
      ],
    }),
    target('4.18.15'),
  ],
  prechecks: [
    { name: 'recommended/CriticalAlerts', status: 'True', reason: 'AsExpected', message: 'No critical alerts firing.' },
    {
      name: 'recommended/PodDisruptionBudgetAlerts/PodDisruptionBudgetAtLimit/0',
      status: 'False',
      reason: 'Alert:firing',
      message: `warning alert ${XSS}`,
      acceptanceName: 'PodDisruptionBudgetAtLimit',
    },
  ],
  clusterConditions: [],
};

afterEach(() => {
  cleanup();
});

describe('BeforeUpdateSection', () => {
  it('shows a blocked target without a command, risks as text, and no link for a non-http URL', () => {
    render(<BeforeUpdateSection recommendations={recommendations} selected="4.19.4" onSelect={() => {}} />);
    const details = screen.getByTestId('update-target-details');
    expect(within(details).getByRole('heading', { level: 4 }).textContent).toBe('Update to 4.19.4');
    expect(within(details).getByTestId('update-risk').textContent).toContain(`load ${XSS}`);
    expect(within(details).queryByRole('link', { name: 'javascript:alert(1)' })).toBeNull();
    expect(within(details).queryByTestId('update-command')).toBeNull();
    expect(within(details).getByTestId('update-blocked').textContent).toContain('Node drains will block on ns/pdb');
    expect(document.querySelector('img')).toBeNull();
    const failing = screen.getAllByTestId('precheck').filter((p) => p.dataset.status === 'False');
    expect(failing.map((p) => p.textContent)).toEqual([expect.stringContaining('PodDisruptionBudgetAtLimit/0')]);
  });

  it('offers the command for a clear target and reports a selection', () => {
    const onSelect = vi.fn();
    render(<BeforeUpdateSection recommendations={recommendations} selected="4.18.15" onSelect={onSelect} />);
    expect(screen.getByTestId('update-command').textContent).toContain('oc adm upgrade --to 4.18.15');
    fireEvent.click(within(screen.getAllByTestId('update-target')[0]).getByRole('button'));
    expect(onSelect).toHaveBeenCalledWith('4.19.4');
  });

  const state = (phase: UpdateStateDto['phase'], label: string): UpdateStateDto => ({
    phase,
    label,
    unknownReason: null,
    targetVersion: '4.18.12',
    fromVersion: '4.18.11',
    rollingBack: false,
    installed: false,
    controlPlane: { percent: 100, done: true },
    pools: [{ name: 'worker', updated: 1, total: 3, unknown: 0 }],
    estimate: { remainingSeconds: null, note: '' },
    frozen: null,
  });

  it('preselects the newest recommended target, and says "not recommended" beside a clear verdict', () => {
    const clear = {
      ...recommendations,
      updates: [{ ...recommendations.updates[0], predictions: [] }, recommendations.updates[1]],
    };
    render(
      <BeforeUpdateSection recommendations={clear} state={state('idle', 'Idle')} selected={null} onSelect={() => {}} />,
    );
    expect(within(screen.getByTestId('update-target-details')).getByRole('heading', { level: 4 }).textContent).toBe(
      'Update to 4.18.15',
    );
    const newest = screen.getAllByTestId('update-target')[0];
    expect(within(newest).getByTestId('verdict').dataset.status).toBe('pass');
    expect(within(newest).getByTestId('not-recommended').textContent).toContain('not recommended');
  });

  it('offers no command and no copy button while an update is in progress, even for a clear recommended target', () => {
    const updating = state('updating-workers', 'Updating workers to 4.18.12');
    render(
      <BeforeUpdateSection recommendations={recommendations} state={updating} selected="4.18.15" onSelect={() => {}} />,
    );
    expect(screen.getByTestId('update-busy').textContent).toContain('Updating workers to 4.18.12');
    expect(screen.queryByTestId('update-command')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy command' })).toBeNull();
    expect(screen.getByTestId('update-blocked').textContent).toContain(
      'An update is in progress: Updating workers to 4.18.12',
    );
    expect(document.body.textContent).not.toContain('oc adm upgrade --to');
  });

  it('offers --allow-not-recommended only after the risk is acknowledged by name', () => {
    const risky = {
      ...recommendations,
      updates: [{ ...recommendations.updates[0], predictions: [] }, recommendations.updates[1]],
    };
    render(
      <BeforeUpdateSection
        recommendations={risky}
        state={state('idle', 'Idle')}
        selected="4.19.4"
        onSelect={() => {}}
      />,
    );
    expect(screen.queryByTestId('update-command')).toBeNull();
    const ack = screen.getByTestId('acknowledge-risk');
    expect(ack.textContent).toContain('I accept the risk of HighNodeStatusReportFrequency');
    fireEvent.click(within(ack).getByRole('checkbox'));
    expect(screen.getByTestId('update-command').textContent).toContain(
      'oc adm upgrade --to 4.19.4 --allow-not-recommended',
    );
    expect(screen.getByTestId('update-command').textContent).not.toContain('--force');
  });
});
