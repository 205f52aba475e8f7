// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateRecommendationsDto, UpdateTargetDto } from '@/lib/api/recommend-dto';
import { BeforeUpdateSection } from './BeforeUpdateSection';

const XSS = '<img src=x onerror="window.__xss=1">';

const target = (version: string, extra: Partial<UpdateTargetDto> = {}): UpdateTargetDto => ({
  version, image: `quay.io/openshift-release-dev/ocp-release@sha256:${'0'.repeat(64)}`, recommended: true, recommendedStatus: 'True',
  conditional: false, risks: [], predictions: [{ check: 'catalog-drain', status: 'pass', title: 'Catalog PodDisruptionBudgets allow drains', detail: 'ok' }], ...extra,
});

const recommendations: UpdateRecommendationsDto = {
  currentVersion: '4.18.12', channel: 'stable-4.18', availableChannels: ['stable-4.18', 'stable-4.19'], upstream: null,
  updates: [
    target('4.19.4', {
      recommended: false, recommendedStatus: 'False', reason: 'HighNodeStatusReportFrequency', message: 'm', conditional: true,
      risks: [{ name: 'HighNodeStatusReportFrequency', message: `load ${XSS}`, url: 'javascript:alert(1)', matchingRules: ['Always'] }],
      predictions: [{ check: 'catalog-drain', status: 'block', title: 'Node drains will block on ns/pdb', detail: 'refused' }],
    }),
    target('4.18.15'),
  ],
  prechecks: [
    { name: 'recommended/CriticalAlerts', status: 'True', reason: 'AsExpected', message: 'No critical alerts firing.' },
    { name: 'recommended/PodDisruptionBudgetAlerts/PodDisruptionBudgetAtLimit/0', status: 'False', reason: 'Alert:firing', message: `warning alert ${XSS}`, acceptanceName: 'PodDisruptionBudgetAtLimit' },
  ],
  clusterConditions: [],
};

afterEach(() => {
  cleanup();
});

describe('BeforeUpdateSection', () => {
  it('shows a blocked target without a command, risks as text, and no link for a non-http URL', () => {
    render(<BeforeUpdateSection recommendations={recommendations} selected={null} onSelect={() => {}} />);
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
});
