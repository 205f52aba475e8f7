import { describe, expect, it } from 'vitest';
import type { ClusterSummaryDto, FindingDto } from '@/lib/api/dto';
import { linkedFinding, parseClusterUrlState, withClusterUrlState } from './cluster-url-state';
import {
  DEFAULT_FLEET_VIEW,
  fleetFacets,
  fleetViewQuery,
  parseFleetView,
  selectFleetRows,
  updateStateLabel,
} from './fleet-rows';
import { sortFindings } from '@/lib/health/finding-order';

const f = (id: string, severity: FindingDto['severity'], detector = 'catalog-replicas', title = id): FindingDto => ({
  id,
  detector,
  severity,
  subject: { kind: 'Deployment', name: 'x' },
  title,
  summary: '',
  evidence: [],
  remediation: [],
});

const c = (id: string, over: Partial<ClusterSummaryDto> = {}): ClusterSummaryDto => ({
  id,
  name: id,
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity: 'ok',
  findingCounts: { critical: 0, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone',
  ...over,
});

describe('fleet rows', () => {
  const rows = [
    c('steady'),
    c('cross-minor-rollback', { worstSeverity: 'critical', version: '4.13.20' }),
    c('update-in-progress', { updating: true, desiredVersion: '4.16.0', version: '4.15.9', worstSeverity: 'info' }),
  ];
  it('sorts by severity by default', () => {
    expect(selectFleetRows(rows, parseFleetView(new URLSearchParams())).map((r) => r.id)).toEqual([
      'cross-minor-rollback',
      'update-in-progress',
      'steady',
    ]);
  });
  it('sorts versions numerically in both directions', () => {
    const view = parseFleetView(new URLSearchParams('sort=version&dir=desc'));
    expect(selectFleetRows(rows, view).map((r) => r.version)).toEqual(['4.16.3', '4.15.9', '4.13.20']);
  });
  it('filters by name, version or update state', () => {
    expect(
      selectFleetRows(rows, { ...DEFAULT_FLEET_VIEW, q: 'ROLLBACK', sort: 'name', dir: 'asc' }).map((r) => r.id),
    ).toEqual(['cross-minor-rollback']);
    expect(
      selectFleetRows(rows, { ...DEFAULT_FLEET_VIEW, q: 'updating', sort: 'name', dir: 'asc' }).map((r) => r.id),
    ).toEqual(['update-in-progress']);
    expect(selectFleetRows(rows, { ...DEFAULT_FLEET_VIEW, q: '4.13', sort: 'name', dir: 'asc' })).toHaveLength(1);
  });
  it('falls back to defaults on unknown params', () => {
    expect(parseFleetView(new URLSearchParams('sort=bogus&dir=up&sev=bad&role=x'))).toEqual(DEFAULT_FLEET_VIEW);
  });
  it('filters exactly by severity, update state, role, management cluster and version, and round-trips through the URL', () => {
    const fleet = [
      ...rows,
      c('mgmt-a', { role: 'management', version: '4.16.8' }),
      c('mgmt-a.clusters.one', {
        role: 'hosted',
        managedBy: 'mgmt-a',
        worstSeverity: 'critical',
        version: '4.14.38',
        desiredVersion: '4.14.39',
        updating: true,
      }),
      c('mgmt-a.clusters.two', { role: 'hosted', managedBy: 'mgmt-a', version: '4.15.23' }),
      c('mgmt-b', { role: 'management', version: '4.16.8' }),
      c('mgmt-b.clusters.one', { role: 'hosted', managedBy: 'mgmt-b', version: '4.15.23' }),
    ];
    const ids = (query: string) => selectFleetRows(fleet, parseFleetView(new URLSearchParams(query))).map((r) => r.id);
    expect(ids('mgmt=mgmt-a&sort=name')).toEqual(['mgmt-a', 'mgmt-a.clusters.one', 'mgmt-a.clusters.two']);
    expect(ids('mgmt=mgmt-a&role=hosted&sort=name')).toEqual(['mgmt-a.clusters.one', 'mgmt-a.clusters.two']);
    expect(ids('sev=critical&sort=name')).toEqual(['cross-minor-rollback', 'mgmt-a.clusters.one']);
    expect(ids('upd=updating&sort=name')).toEqual(['mgmt-a.clusters.one', 'update-in-progress']);
    expect(ids('upd=idle&role=hosted&sort=name')).toEqual(['mgmt-a.clusters.two', 'mgmt-b.clusters.one']);
    expect(ids('ver=4.14.39')).toEqual(['mgmt-a.clusters.one']);
    const view = parseFleetView(
      new URLSearchParams('q=x&sort=name&dir=desc&sev=warning&upd=idle&role=hosted&mgmt=mgmt-b&ver=4.15.23'),
    );
    expect(parseFleetView(new URLSearchParams(fleetViewQuery(view)))).toEqual(view);
    expect(fleetViewQuery(DEFAULT_FLEET_VIEW)).toBe('');
    expect(fleetFacets(fleet)).toEqual({
      versions: ['4.16.8', '4.16.3', '4.16.0', '4.15.23', '4.15.9', '4.14.39', '4.14.38', '4.13.20'],
      managementClusters: [
        { id: 'mgmt-a', name: 'mgmt-a' },
        { id: 'mgmt-b', name: 'mgmt-b' },
      ],
    });
  });
  it('labels the update state', () => {
    expect(updateStateLabel(rows[2])).toBe('Updating to 4.16.0');
    expect(updateStateLabel(rows[0])).toBe('Idle');
  });
});

describe('cluster URL state', () => {
  it('parses and defaults', () => {
    expect(
      parseClusterUrlState(new URLSearchParams('range=6h&panel=catalog-replicas&finding=f1&target=4.19.4')),
    ).toEqual({ range: '6h', panel: 'catalog-replicas', finding: 'f1', target: '4.19.4', at: null });
    expect(parseClusterUrlState(new URLSearchParams('range=2d'))).toEqual({
      range: '1h',
      panel: null,
      finding: null,
      target: null,
      at: null,
    });
  });

  it('reads ?at= as a normalised UTC time, a non-time as live, and writes it back shareable', () => {
    const at = (value: string) => parseClusterUrlState(new URLSearchParams({ at: value })).at;
    expect(at('2026-11-25T11:10:00+01:00')).toBe('2026-11-25T10:10:00.000Z');
    expect(at(String(Date.parse('2026-11-25T10:10:00Z')))).toBe('2026-11-25T10:10:00.000Z');
    expect(at('yesterday')).toBeNull();
    expect(at('')).toBeNull();
    const cur = new URLSearchParams('range=6h');
    expect(withClusterUrlState(cur, { at: '2026-11-25T10:10:00.000Z' })).toBe(
      '?range=6h&at=2026-11-25T10%3A10%3A00.000Z',
    );
    expect(withClusterUrlState(new URLSearchParams('at=x&range=6h'), { at: null })).toBe('?range=6h');
  });
  it('merges patches, dropping defaults and cleared values', () => {
    const cur = new URLSearchParams('range=6h&finding=f1&other=1');
    expect(withClusterUrlState(cur, { panel: 'pod-setup-latency' })).toBe(
      '?range=6h&finding=f1&other=1&panel=pod-setup-latency',
    );
    expect(withClusterUrlState(cur, { finding: null, range: '1h' })).toBe('?other=1');
    expect(withClusterUrlState(cur, { target: '4.19.4' })).toBe('?range=6h&finding=f1&other=1&target=4.19.4');
    expect(withClusterUrlState(new URLSearchParams(), { finding: 'a b&c' })).toBe('?finding=a+b%26c');
  });

  it("opens an alert's link on the worst finding of the detector it names, and a finding id on that finding", () => {
    const findings = sortFindings([
      f('pod-setup-latency:Node//worker-0:warning', 'warning', 'pod-setup-latency'),
      f('catalog-replicas:Deployment/openshift-catalogd/catalogd', 'critical'),
      f('pod-setup-latency:Node//worker-1:critical', 'critical', 'pod-setup-latency'),
    ]);
    const alertLink = parseClusterUrlState(new URLSearchParams('panel=pod-setup-latency&finding=pod-setup-latency'));
    expect(linkedFinding(findings, alertLink.finding!)?.id).toBe('pod-setup-latency:Node//worker-1:critical');
    const exact = 'pod-setup-latency:Node//worker-0:warning';
    expect(linkedFinding(findings, exact)?.id).toBe(exact);
    expect(linkedFinding(findings, 'node-drain')).toBeUndefined();
  });

  it('a row whose update state is unknown shows why and is not filtered as idle', () => {
    const rows = [
      c('dev-view', { updatePhase: 'unknown', updateLabel: 'Update state unknown: you may not read clusterversions' }),
      c('quiet', { updatePhase: 'idle', updateLabel: 'Idle' }),
    ];
    expect(updateStateLabel(rows[0])).toBe('Update state unknown: you may not read clusterversions');
    expect(selectFleetRows(rows, { ...DEFAULT_FLEET_VIEW, update: 'idle' }).map((row) => row.id)).toEqual(['quiet']);
  });

  it("takes the page's own default range (a frozen incident opens on all of it) and keeps a chosen 1 hour", () => {
    expect(parseClusterUrlState(new URLSearchParams(''), 'all').range).toBe('all');
    expect(parseClusterUrlState(new URLSearchParams('range=1h'), 'all').range).toBe('1h');
    expect(withClusterUrlState(new URLSearchParams(''), { range: '1h' }, 'all')).toBe('?range=1h');
    expect(withClusterUrlState(new URLSearchParams('range=1h'), { range: 'all' }, 'all')).toBe('');
  });
});
