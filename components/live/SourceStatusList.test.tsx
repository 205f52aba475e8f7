// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceStateDto } from '@/lib/api/dto';
import { activityDto } from '@/lib/health/tiers';
import { SourceStatusList } from './SourceStatusList';

afterEach(cleanup);

const NOW = Date.parse('2026-11-26T00:00:00Z');
const since = new Date(NOW - 60_000).toISOString();
const sources: SourceStateDto[] = [
  { resource: 'clusterversions', status: 'synced', since },
  { resource: 'pods', namespace: 'openshift-catalogd', status: 'synced', since },
  { resource: 'pods', status: 'idle', since },
];

describe('SourceStatusList on an idle cluster', () => {
  it('says which sources wait for activity and why, and does not call them all synced', () => {
    const activity = activityDto({ tier: 'always', since: NOW - 60_000, reasons: [] });
    render(<SourceStatusList sources={sources} now={NOW} activity={activity} />);
    expect(
      screen.getByText('2 sources synced, 1 waiting for activity (not read while the cluster is idle)'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/All \d+ sources synced/);
    expect(screen.getByText('waiting for activity')).toBeTruthy();
    expect(screen.getByTestId('idle-tier').textContent).toContain('cluster-wide pods');
  });

  it('says all synced on an active cluster', () => {
    const active = sources.map((source) => ({ ...source, status: 'synced' as const }));
    render(<SourceStatusList sources={active} now={NOW} />);
    expect(screen.getByText('All 3 sources synced')).toBeTruthy();
    expect(screen.queryByTestId('idle-tier')).toBeNull();
  });

  it('states an upstream-only namespace on OpenShift as not applicable, not as a source behind', () => {
    const upstream: SourceStateDto = {
      resource: 'deployments',
      namespace: 'olmv1-system',
      status: 'not-applicable',
      since,
      error: { code: 403, reason: 'Forbidden', message: 'deployments.apps is forbidden' },
    };
    const active = sources.map((source) => ({ ...source, status: 'synced' as const }));
    render(<SourceStatusList sources={[...active, upstream]} now={NOW} />);
    expect(
      screen.getByText('3 sources synced, 1 not applicable (upstream-only namespace, which OpenShift does not have)'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/not synced|forbidden|All \d+ sources synced/);
    expect(screen.getByText('not applicable')).toBeTruthy();
  });
});
