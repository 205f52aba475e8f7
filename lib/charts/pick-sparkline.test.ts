import { describe, expect, it } from 'vitest';
import type { ClusterSeriesDto, SamplePointDto } from '@/lib/api/dto';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import { pickSparkline, type SparklineRow } from './pick-sparkline';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const HOUR = 60 * 60_000;
const series = (samples: ClusterSeriesDto['samples']): ClusterSeriesDto => ({
  clusterId: 'c',
  now: NOW,
  samples,
  transitions: [],
});
/** Points every minute over the last `minutes`, valued by `value(i)`. */
const points = (key: string, value: (i: number) => number, minutes = 10): SamplePointDto[] =>
  Array.from({ length: minutes }, (_, i) => ({ t: NOW - (minutes - 1 - i) * 60_000, values: { [key]: value(i) } }));
const quiet: SparklineRow = { updating: false };
const finding = (detector: string): SparklineRow => ({
  updating: false,
  worstFinding: { id: 'f', detector, severity: 'critical', title: 't' },
});

describe('pickSparkline: the choice', () => {
  it('is null without samples', () => {
    expect(pickSparkline(quiet, undefined)).toBeNull();
    expect(pickSparkline(quiet, series({}))).toBeNull();
  });

  it("plots the worst finding's own signal, even when another series moves more", () => {
    const s = series({
      'featuregate-coverage': points('missing', () => 2),
      'pod-setup-latency': points('p99', (i) => i / 10),
    });
    expect(pickSparkline(finding('featuregate-coverage'), s)).toMatchObject({
      detector: 'featuregate-coverage',
      key: 'missing',
      label: 'FeatureGate version coverage · Missing versions, in count, last 1 h',
      caption: 'Missing versions, last 1 h',
    });
  });

  it("plots the worst finding's signal during an update, and the update's completion when nothing warns", () => {
    const s = series({
      'update-progress': points('completionPercent', (i) => i * 5),
      'featuregate-coverage': points('missing', () => 2),
    });
    expect(pickSparkline({ ...finding('featuregate-coverage'), updating: true }, s)?.key).toBe('missing');
    expect(pickSparkline({ updating: true }, s)?.key).toBe('completionPercent');
    const info: SparklineRow = {
      updating: true,
      worstFinding: { id: 'f', detector: 'featuregate-coverage', severity: 'info', title: 't' },
    };
    expect(pickSparkline(info, s)?.key).toBe('completionPercent');
  });

  it('without a finding or update, plots pod-setup latency, then the first panel with samples', () => {
    const s = series({ 'catalog-replicas': points('ready', (i) => i), 'pod-setup-latency': points('p99', () => 0.3) });
    expect(pickSparkline(quiet, s)?.detector).toBe('pod-setup-latency');
    const settling = series({ 'install-settling': points('statusChangesLastMinute', () => 0) });
    expect(pickSparkline(quiet, settling)?.detector).toBe('install-settling');
    const replicas = series({ 'catalog-replicas': points('ready', () => 1) });
    expect(pickSparkline(finding('hosted-control-plane'), replicas)?.detector).toBe('catalog-replicas');
  });

  it('does not depend on the order samples arrived in or on which series moves', () => {
    const a = series({
      'catalog-replicas': points('ready', (i) => i % 3),
      'pod-setup-latency': points('p99', () => 0.3),
    });
    const b = series({
      'pod-setup-latency': [...points('p99', () => 0.3)].reverse(),
      'catalog-replicas': points('ready', () => 1),
    });
    expect(pickSparkline(quiet, a)?.detector).toBe(pickSparkline(quiet, b)?.detector);
    expect(pickSparkline(quiet, b)?.points.map((p) => p.t)).toEqual(points('p99', () => 0).map((p) => p.t));
  });
});

describe('pickSparkline: the window and the baseline', () => {
  it('spans the last hour of cluster time and drops older samples', () => {
    const old = { t: NOW - HOUR - 60_000, values: { p99: 9 } };
    const out = pickSparkline(quiet, series({ 'pod-setup-latency': [old, ...points('p99', () => 0.3)] }))!;
    expect(out.window).toEqual({ from: NOW - HOUR, to: NOW, label: 'last 1 h' });
    expect(out.points).toHaveLength(10);
    expect(out.points.every((p) => p.t >= NOW - HOUR)).toBe(true);
  });

  it('keeps healthy noise low on a fixed floor: seconds up to the warning threshold, percent 0–100, counts 1', () => {
    const latency = pickSparkline(quiet, series({ 'pod-setup-latency': points('p99', (i) => (i % 2 ? 0.2 : 0.4)) }))!;
    expect(latency.domain).toEqual([0, DEFAULT_HEALTH_CONFIG.latencyWarningSeconds]);
    const slow = pickSparkline(quiet, series({ 'pod-setup-latency': points('p99', () => 4.2) }))!;
    expect(slow.domain).toEqual([0, 4.2]);
    const progress = series({ 'update-progress': points('completionPercent', (i) => i) });
    const updating = pickSparkline({ updating: true }, progress)!;
    expect(updating.domain).toEqual([0, 100]);
    const none = series({ 'featuregate-coverage': points('missing', () => 0) });
    const flat = pickSparkline(finding('featuregate-coverage'), none)!;
    expect(flat.domain).toEqual([0, 1]);
  });
});
