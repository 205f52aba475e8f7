import { describe, expect, it } from 'vitest';
import type { SourceStateDto } from '@/lib/api/dto';
import { sourceUpToDate } from '@/lib/health/tiers';
import { UPSTREAM_OLMV1_NAMESPACE } from '@/lib/health/shared/olmv1-presence';
import { judgeSources, servesOpenShift, upstreamOnly, upstreamOnlyPlan } from './source-applicability';

const since = '2026-01-01T00:00:00Z';
const refused = { code: 403, reason: 'Forbidden', message: 'deployments is forbidden' };
const upstreamDeployments: SourceStateDto = {
  resource: 'deployments',
  namespace: UPSTREAM_OLMV1_NAMESPACE,
  status: 'forbidden',
  since,
  error: refused,
};
const cv = (status: SourceStateDto['status']): SourceStateDto => ({ resource: 'clusterversions', status, since });

describe('judgeSources', () => {
  it('states a refused upstream-only namespace as not applicable on OpenShift, and up to date', () => {
    const judged = judgeSources([cv('synced'), upstreamDeployments]);
    expect(judged[1]).toEqual({ ...upstreamDeployments, status: 'not-applicable' });
    expect(judged.every(sourceUpToDate)).toBe(true);
  });

  it('keeps OpenShift once its ClusterVersion source synced, even while it is stale', () => {
    expect(judgeSources([cv('stale'), upstreamDeployments])[1].status).toBe('not-applicable');
  });

  it('keeps the refusal forbidden where the cluster is not OpenShift (no ClusterVersion API)', () => {
    const notServed = {
      ...cv('pending'),
      error: { code: 404, reason: 'NotFound', message: 'the server could not find' },
    };
    const judged = judgeSources([notServed, upstreamDeployments]);
    expect(judged[1].status).toBe('forbidden');
    expect(sourceUpToDate(judged[1])).toBe(false);
    expect(servesOpenShift(judged)).toBe(false);
  });

  it('keeps forbidden where OpenShift cannot be told (ClusterVersion itself refused)', () => {
    expect(judgeSources([cv('forbidden'), upstreamDeployments])[1].status).toBe('forbidden');
  });

  it('keeps a refusal in any other namespace forbidden on OpenShift', () => {
    const catalogd = { ...upstreamDeployments, namespace: 'openshift-catalogd' };
    expect(judgeSources([cv('synced'), catalogd])[1].status).toBe('forbidden');
  });

  it('leaves a readable upstream namespace as it is (an upstream OLMv1 on OpenShift is watched)', () => {
    const readable: SourceStateDto = { ...upstreamDeployments, status: 'synced', error: undefined };
    expect(judgeSources([cv('synced'), readable])[1]).toBe(readable);
  });
});

describe('upstreamOnlyPlan', () => {
  it('reads nothing in an upstream-only namespace on OpenShift, even while its ClusterVersion source is stale', () => {
    expect(upstreamOnlyPlan([cv('synced')])).toBe('not-applicable');
    expect(upstreamOnlyPlan([cv('stale')])).toBe('not-applicable');
  });

  it('watches there once the ClusterVersion API answered 404 (Kubernetes without OpenShift)', () => {
    const notServed = { ...cv('pending'), error: { code: 404, message: 'the server could not find' } };
    expect(upstreamOnlyPlan([notServed])).toBe('watch');
  });

  it('watches there where OpenShift cannot be told (ClusterVersion refused or unreachable), as before', () => {
    expect(upstreamOnlyPlan([{ ...cv('forbidden'), error: refused }])).toBe('watch');
    expect(upstreamOnlyPlan([{ ...cv('unreachable'), error: { message: 'connect ECONNREFUSED' } }])).toBe('watch');
    expect(upstreamOnlyPlan([])).toBe('watch');
  });

  it('waits while the ClusterVersion source has not answered yet', () => {
    expect(upstreamOnlyPlan([cv('pending')])).toBe('wait');
  });

  it('tells upstream-only needs by their namespace', () => {
    expect(upstreamOnly({ namespace: UPSTREAM_OLMV1_NAMESPACE })).toBe(true);
    expect(upstreamOnly({ namespace: 'openshift-catalogd' })).toBe(false);
    expect(upstreamOnly({})).toBe(false);
  });
});
