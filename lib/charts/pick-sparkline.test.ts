import { describe, expect, it } from 'vitest';
import type { ClusterSeriesDto } from '@/lib/api/dto';
import { pickSparkline } from './pick-sparkline';

const series = (samples: ClusterSeriesDto['samples']): ClusterSeriesDto => ({ clusterId: 'c', now: 10, samples, transitions: [] });
const flat = (key: string, v: number) => [1, 2, 3].map((t) => ({ t, values: { [key]: v } }));
const moving = (key: string) => [1, 2, 3].map((t) => ({ t, values: { [key]: t } }));

describe('pickSparkline', () => {
  it('is null without samples', () => {
    expect(pickSparkline(undefined)).toBeNull();
    expect(pickSparkline(series({}))).toBeNull();
  });
  it('prefers a series that moves over a flat one earlier in panel order', () => {
    const out = pickSparkline(series({ 'update-progress': flat('completionPercent', 100), 'pod-setup-latency': moving('p99') }));
    expect(out).toMatchObject({
      detector: 'pod-setup-latency', key: 'p99', label: 'Pod-setup latency · p99, in seconds, over the last 3 samples', caption: 'p99 (s)',
    });
    expect(out?.points).toHaveLength(3);
  });
  it('honours the preferred order among moving series', () => {
    const s = series({ 'catalog-replicas': moving('ready'), 'install-settling': moving('statusChangesLastMinute') });
    expect(pickSparkline(s, ['install-settling'])?.detector).toBe('install-settling');
  });
  it('falls back to the first series with data when nothing moves', () => {
    expect(pickSparkline(series({ 'catalog-replicas': flat('ready', 1) }))?.detector).toBe('catalog-replicas');
  });
});
