/**
 * The compact row says what the row used to say from every source: the rules written against the whole list of
 * sources (as they stood when rows carried it) give the same answers as the ones that read the compact row.
 */
import { describe, expect, it } from 'vitest';
import { rowSourcesSchema, type SourceStateDto } from '@/lib/api/dto';
import { rowSynced, sourceUpToDate } from '@/lib/health/tiers';
import { sourcesCell } from '@/lib/view/fleet-rows';
import { rowSourcesOf, rowWaiting } from './row-sources';

const AT = '2026-11-25T09:00:00Z';
const STATUSES: readonly SourceStateDto['status'][] = [
  'pending',
  'synced',
  'stale',
  'forbidden',
  'unauthorized',
  'unreachable',
  'idle',
  'not-applicable',
];
const synced = (resource: string, since = AT): SourceStateDto => ({
  resource,
  status: 'synced',
  since,
  lastSyncAt: since,
  lastEventAt: since,
});
const IDLE = { tier: 'always' as const, since: AT, reasons: [], waiting: ['cluster-wide pods'] };

// The rules as they read the whole list of sources.
const wholeCell = (sources: readonly SourceStateDto[], idle: boolean): string => {
  const bad = sources.filter((s) => !sourceUpToDate(s));
  if (sources.length === 0) return '—';
  if (bad.length === 0) return idle ? 'synced · idle tier' : 'all synced';
  return `${bad.length} not synced (${[...new Set(bad.map((s) => s.status))].join(', ')})`;
};
const wholeSynced = (sources: readonly SourceStateDto[]) => sources.length > 0 && sources.every(sourceUpToDate);
const wholeWaiting = (sources: readonly SourceStateDto[]) => {
  if (sources.some((s) => s.status === 'synced')) return undefined;
  const failing = sources.find((s) => s.error);
  const reason = failing
    ? `${failing.status}: ${failing.error!.code ? `${failing.error!.code} ` : ''}${failing.error!.message}`
    : 'connecting';
  return { reason, since: sources.map((s) => s.since).sort()[0] };
};

/** A deterministic pseudo-random list of sources (mulberry32). */
function randomSources(seed: number): SourceStateDto[] {
  let t = seed;
  const next = () => {
    t = (t + 0x6d2b79f5) | 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: Math.floor(next() * 25) }, (_, i) => {
    const status = STATUSES[Math.floor(next() * STATUSES.length)];
    // Only a source behind carries an error (see the test on a not-applicable refusal below).
    const failing = !sourceUpToDate({ status }) && next() < 0.6;
    return {
      resource: `r${i}`,
      ...(next() < 0.3 ? { namespace: `ns${i}` } : {}),
      status,
      since: new Date(Date.parse(AT) + Math.floor(next() * 3_600_000)).toISOString(),
      lastEventAt: AT,
      ...(failing ? { error: { ...(next() < 0.5 ? { code: 503 } : {}), message: `failure ${i}` } } : {}),
    };
  });
}

describe('rowSourcesOf', () => {
  it('counts every source, the synced ones, and lists only those behind, without the moving timestamps', () => {
    const sources: SourceStateDto[] = [
      ...Array.from({ length: 20 }, (_, i) => synced(`s${i}`, `2026-11-25T09:00:${String(10 + i)}Z`)),
      { resource: 'pods', status: 'idle', since: '2026-11-25T08:00:00Z' },
      {
        resource: 'events',
        namespace: 'openshift-etcd',
        status: 'unreachable',
        since: '2026-11-25T09:05:00Z',
        lastSyncAt: AT,
        error: { message: 'connect ECONNREFUSED' },
        retryAt: '2026-11-25T09:05:30Z',
      },
    ];
    const row = rowSourcesOf(sources);
    expect(rowSourcesSchema.parse(row)).toEqual(row);
    expect(row).toEqual({
      total: 22,
      synced: 20,
      behind: [
        {
          resource: 'events',
          namespace: 'openshift-etcd',
          status: 'unreachable',
          since: '2026-11-25T09:05:00Z',
          error: { message: 'connect ECONNREFUSED' },
        },
      ],
      since: '2026-11-25T08:00:00Z',
    });
  });

  it('costs the same whatever the number of synced sources', () => {
    const size = (n: number) =>
      JSON.stringify(rowSourcesOf(Array.from({ length: n }, (_, i) => synced(`s${i}`)))).length;
    expect(size(40)).toBe(size(20));
  });

  it('has no since without sources', () => {
    expect(rowSourcesOf([])).toEqual({ total: 0, synced: 0, behind: [] });
  });
});

describe('the compact row says what the whole list said', () => {
  it('20 synced and 2 pending: "2 not synced (pending)", not synced, connected', () => {
    const sources: SourceStateDto[] = [
      ...Array.from({ length: 20 }, (_, i) => synced(`s${i}`)),
      { resource: 'pods', status: 'pending', since: AT },
      { resource: 'events', status: 'pending', since: AT },
    ];
    const row = { sources: rowSourcesOf(sources) };
    expect(sourcesCell(row).text).toBe('2 not synced (pending)');
    expect(sourcesCell(row).state).toBe('behind');
    expect(rowSynced(row)).toBe(false);
    expect(rowWaiting(row)).toBeUndefined();
  });

  it('all idle, not applicable or synced: synced ("synced · idle tier" on an idle cluster)', () => {
    const sources: SourceStateDto[] = [
      synced('clusterversions'),
      { resource: 'pods', status: 'idle', since: AT },
      { resource: 'deployments', namespace: 'olmv1-system', status: 'not-applicable', since: AT },
    ];
    const row = { sources: rowSourcesOf(sources) };
    expect(rowSynced(row)).toBe(true);
    expect(sourcesCell(row)).toEqual({ state: 'synced', text: 'all synced' });
    expect(sourcesCell({ ...row, activity: IDLE })).toEqual({ state: 'synced', text: 'synced · idle tier' });
  });

  it('no sources: "—", not synced, waiting to connect', () => {
    const row = { sources: rowSourcesOf([]) };
    expect(sourcesCell(row)).toEqual({ state: 'none', text: '—' });
    expect(rowSynced(row)).toBe(false);
    expect(rowWaiting(row)).toEqual({ reason: 'connecting', since: undefined });
  });

  it("a waiting row's since is the earliest of its sources (idle ones too), its reason the first error", () => {
    const sources: SourceStateDto[] = [
      { resource: 'clusterversions', status: 'pending', since: '2026-11-25T09:10:00Z' },
      { resource: 'pods', status: 'idle', since: '2026-11-25T08:30:00Z' },
      {
        resource: 'nodes',
        status: 'unreachable',
        since: '2026-11-25T09:20:00Z',
        error: { code: 503, message: 'Service Unavailable' },
      },
      { resource: 'events', status: 'stale', since: '2026-11-25T09:00:00Z', error: { message: 'EOF' } },
    ];
    expect(rowWaiting({ sources: rowSourcesOf(sources) })).toEqual({
      reason: 'unreachable: 503 Service Unavailable',
      since: '2026-11-25T08:30:00Z',
    });
    const reachability = { status: 'hub-unavailable' as const, since: AT, message: 'lease expired' };
    expect(rowWaiting({ sources: rowSourcesOf(sources), reachability })).toEqual({
      reason: 'hub reports unavailable: lease expired',
      since: AT,
    });
  });

  it("a not-applicable source's refusal is not why a row waits: the first source behind with an error is", () => {
    const refused = { code: 403, reason: 'Forbidden', message: 'forbidden' };
    const sources: SourceStateDto[] = [
      { resource: 'deployments', namespace: 'olmv1-system', status: 'not-applicable', since: AT, error: refused },
      { resource: 'clusterversions', status: 'stale', since: AT, error: { message: 'connection reset' } },
    ];
    expect(rowWaiting({ sources: rowSourcesOf(sources) })?.reason).toBe('stale: connection reset');
  });

  it('agrees with the rules over the whole list on 2,000 generated source lists', () => {
    for (let seed = 1; seed <= 2_000; seed += 1) {
      const sources = randomSources(seed);
      const row = { sources: rowSourcesOf(sources) };
      expect(rowSynced(row), `seed ${seed}`).toBe(wholeSynced(sources));
      for (const idle of [false, true])
        expect(sourcesCell({ ...row, ...(idle ? { activity: IDLE } : {}) }).text, `seed ${seed}`).toBe(
          wholeCell(sources, idle),
        );
      expect(rowWaiting(row), `seed ${seed}`).toEqual(wholeWaiting(sources));
      expect(row.sources.synced > 0, `seed ${seed}`).toBe(sources.some((s) => s.status === 'synced'));
    }
  });
});
