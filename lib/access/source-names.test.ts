import { describe, expect, it } from 'vitest';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { fileBaseName, viewerDiscoveredBy, viewerSourceNames, viewerSourceStatus } from './source-names';

describe('fileBaseName', () => {
  it('keeps the last segment of a POSIX or Windows path, and a bare name as it is', () => {
    expect(fileBaseName('/home/sre/.kube/fleet.yaml')).toBe('fleet.yaml');
    expect(fileBaseName('C:\\Users\\sre\\kubeconfig')).toBe('kubeconfig');
    expect(fileBaseName('/etc/fleet/')).toBe('fleet');
    expect(fileBaseName('kubeconfig')).toBe('kubeconfig');
  });
});

describe('what viewers see of a fleet source', () => {
  it('a kubeconfig by its base name; a hub and a management cluster as they are', () => {
    expect(viewerDiscoveredBy({ kind: 'kubeconfig', name: '/srv/a/b.yaml' })).toEqual({
      kind: 'kubeconfig',
      name: 'b.yaml',
    });
    const hub = { kind: 'hub' as const, name: 'hub' };
    expect(viewerDiscoveredBy(hub)).toBe(hub);
  });

  it("a kubeconfig's error without the parser's detail, which may quote the file", () => {
    const since = '2026-11-25T10:00:00Z';
    const detail = 'cannot parse /srv/a/b.yaml: bad indentation (3:5)\n 3 |   token: sha256~secret';
    expect(
      viewerSourceStatus({ kind: 'kubeconfig', name: '/srv/a/b.yaml', error: { message: detail, since } }),
    ).toEqual({
      kind: 'kubeconfig',
      name: 'b.yaml',
      error: { message: 'the kubeconfig b.yaml cannot be read now; the clusters read before are kept', since },
    });
    expect(viewerSourceStatus({ kind: 'kubeconfig', name: '/srv/a/b.yaml' })).toEqual({
      kind: 'kubeconfig',
      name: 'b.yaml',
    });
    const hub = { kind: 'hub' as const, name: 'hub', error: { message: 'hub hub unreachable: ECONNREFUSED', since } };
    expect(viewerSourceStatus(hub)).toBe(hub);
  });

  it("a cluster's health names its kubeconfig by base name and is otherwise unchanged", () => {
    const health = {
      cluster: { id: 'a', name: 'a', discoveredBy: { kind: 'kubeconfig', name: '/srv/a/b.yaml' }, history: [] },
      findings: [],
    } as unknown as ClusterHealthDto;
    const seen = viewerSourceNames(health);
    expect(seen.cluster.discoveredBy).toEqual({ kind: 'kubeconfig', name: 'b.yaml' });
    expect(seen.findings).toBe(health.findings);
    expect(health.cluster.discoveredBy?.name).toBe('/srv/a/b.yaml');
  });
});
