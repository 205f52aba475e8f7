import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '@/lib/k8s/types';
import { computeUpdateProgress } from '@/lib/health/update-progress/update-progress';
import { createReadStream } from 'node:fs';
import { analyzeOffline, analyzeOfflineStream } from './analyze-offline';
import { readOffline } from './read-offline';
import { directoryEntries, writeTestArchive } from './test-support';

const FIXTURES = join(process.cwd(), 'server/fixtures');
const MUST_GATHER = join(FIXTURES, 'must-gather/azure-4.8.11');
const RESOURCEWATCH = join(FIXTURES, 'resourcewatch/okd-4.12-3nodes');
const OC_STATUS = join(FIXTURES, 'oc-upgrade/status');

let temp: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'offline-fixtures-'));
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe('real must-gather (OCP 4.8.11 on Azure)', () => {
  it('reads the cluster version, history, ClusterOperators, nodes, pools and the CVO log', async () => {
    const { health, offline } = await analyzeOffline([MUST_GATHER]);
    expect(health.cluster).toMatchObject({
      version: '4.8.11',
      desiredVersion: '4.8.11',
      name: 'ci-ln-k7vx6h2-002ac-w7gjh',
    });
    expect(health.cluster.history).toEqual([expect.objectContaining({ version: '4.8.11', state: 'Completed' })]);
    expect(offline.nowSource).toBe('timestamp');
    expect(new Date(offline.now).toISOString()).toBe('2021-09-13T15:34:17.241Z');
    const objects = offline.snapshot.objects;
    expect(objects.clusteroperators).toHaveLength(31);
    expect(objects.clusterversions).toHaveLength(1);
    expect(objects.nodes).toHaveLength(6);
    expect(objects.machineconfigpools?.map((pool) => pool.metadata.name).sort()).toEqual(['master', 'worker']);
    expect(objects.featuregates?.[0].metadata.name).toBe('cluster');
    expect(health.updateProgress?.controlPlane).toMatchObject({ targetVersion: '4.8.11', completionPercent: 100 });
    const cvo = offline.snapshot.logs.find((log) => log.container === 'cluster-version-operator');
    expect(cvo?.ref).toMatchObject({
      kind: 'Pod',
      namespace: 'openshift-cluster-version',
      name: 'cluster-version-operator-5c8745d67c-q4kfs',
    });
    expect(cvo?.lines.length).toBeGreaterThan(0);
    expect(cvo!.lines.length).toBeLessThanOrEqual(200);
    // Projected like the live watch layer: no managed field sets, no last-applied copies.
    const all = Object.values(objects).flat();
    expect(all.some((object) => JSON.stringify(object?.metadata.managedFields ?? []).includes('fieldsV1'))).toBe(false);
    expect(
      all.some((object) => object?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']),
    ).toBe(false);
    // Only what the detectors read: operator.openshift.io objects and the like are ignored, and of the ConfigMaps
    // only HyperShift's rendered `feature-gate` ones would be kept (this must-gather has none).
    expect(Object.keys(objects)).not.toContain('configmaps');
    expect(offline.alerts.length).toBeGreaterThan(0);
    expect(offline.snapshot.transitions.filter((t) => t.ref.kind === 'ClusterOperator').length).toBeGreaterThan(31);
  });

  it('gives the same result from a streamed .tar.gz as from the directory', async () => {
    const archive = join(temp, 'must-gather.tar.gz');
    await writeTestArchive(archive, directoryEntries(MUST_GATHER, 'must-gather.local.5117/'));
    const fromDirectory = await analyzeOffline([MUST_GATHER]);
    const fromArchive = await analyzeOffline([archive]);
    expect(fromArchive.health).toEqual(fromDirectory.health);
    expect(fromArchive.offline.snapshot).toEqual(fromDirectory.offline.snapshot);
    expect(await readdir(temp)).toEqual(['must-gather.tar.gz']);
    const fromUpload = await analyzeOfflineStream(createReadStream(archive, { highWaterMark: 1000 }), 'upload.tar.gz');
    expect(fromUpload.health).toEqual(fromDirectory.health);
    expect(fromUpload.offline.snapshot).toEqual(fromDirectory.offline.snapshot);
  });
});

describe('resourcewatch (OKD 4.12, one object per file)', () => {
  it('reads the version, ClusterOperators and replays the ClusterVersion history as transitions', async () => {
    const { health, offline } = await analyzeOffline([RESOURCEWATCH]);
    expect(health.cluster.version).toBe('4.12.0-0.okd-2023-03-04-063026');
    expect(health.cluster.history).toEqual([
      expect.objectContaining({ version: '4.12.0-0.okd-2023-03-04-063026', state: 'Completed' }),
    ]);
    expect(offline.snapshot.objects.clusteroperators).toHaveLength(33);
    const cv = offline.snapshot.transitions.filter((t) => t.ref.kind === 'ClusterVersion');
    // 28 recorded versions: the install starts Progressing, fails over and over, then completes.
    expect(cv[0]).toMatchObject({ type: 'RetrievedUpdates', at: '2023-03-08T11:41:33.000Z' });
    expect(cv.filter((t) => t.type === 'Failing' && t.status === 'True').length).toBeGreaterThan(5);
    expect(cv.findLast((t) => t.type === 'Available')).toMatchObject({ status: 'True' });
    expect(cv.map((t) => t.at)).toEqual([...cv.map((t) => t.at)].sort());
    expect(health.updateProgress?.controlPlane.assessment).toBe('Completed');
  });
});

function loadList(path: string): Promise<KubeObject[]> {
  return readFile(path, 'utf8').then((text) => (load(text) as KubeList).items);
}

/** The example ClusterVersion file holds either the object or a `List` of it. */
async function loadClusterVersion(path: string): Promise<KubeObject> {
  const loaded = load(await readFile(path, 'utf8')) as KubeObject & { items?: KubeObject[] };
  return loaded.kind === 'List' && loaded.items ? loaded.items[0] : loaded;
}

describe('loose `oc get -o yaml` dumps (oc adm upgrade status examples)', async () => {
  const cases = (await readdir(OC_STATUS))
    .filter((name) => name.endsWith('-cv.yaml'))
    .map((name) => name.slice(0, -'-cv.yaml'.length));
  it.each(cases)('%s: same update progress as computeUpdateProgress on the raw objects', async (name) => {
    const file = (suffix: string) => join(OC_STATUS, `${name}-${suffix}.yaml`);
    const { health, offline } = await analyzeOffline(['cv', 'co', 'mc', 'mcp', 'node'].map(file));
    const expected = computeUpdateProgress(
      {
        clusterVersion: await loadClusterVersion(file('cv')),
        clusterOperators: await loadList(file('co')),
        machineConfigs: await loadList(file('mc')),
        machineConfigPools: await loadList(file('mcp')),
        nodes: await loadList(file('node')),
      },
      offline.now,
    );
    expect(health.updateProgress).toEqual(expected);
    expect(offline.nowSource).toBe('objects');
  });

  it('merges several paths into one snapshot and honours an explicit clock', async () => {
    const now = Date.parse('2024-01-01T00:00:00Z');
    const offline = await readOffline([join(OC_STATUS, '4.14.1-degraded-cv.yaml'), MUST_GATHER], { now });
    expect(offline.now).toBe(now);
    expect(offline.nowSource).toBe('option');
    expect(offline.snapshot.objects.clusterversions?.map((cv) => cv.metadata.resourceVersion)).toHaveLength(1);
    expect(offline.snapshot.objects.clusteroperators).toHaveLength(31);
  });
});
