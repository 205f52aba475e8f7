import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { resourceForKind, type ResourceName } from '@/lib/k8s/resources';
import type { Snapshot } from '@/lib/health/types';
import { makeContext } from '@/lib/health/testing/builders';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { projectObject } from './projections';

// Real objects: `oc adm upgrade status` test data, a must-gather, and the ClusterVersion CRDs and rendered FeatureGates
// of each release (see server/fixtures/PROVENANCE.md).
const FIXTURES = join(process.cwd(), 'server/fixtures');
const OC_STATUS = join(FIXTURES, 'oc-upgrade/status');
const MUST_GATHER = join(FIXTURES, 'must-gather/azure-4.8.11');
const CRDS = join(FIXTURES, 'openshift-api/crds/clusterversion');
const FEATURE_GATES = join(FIXTURES, 'openshift-api/crds/featuregate/rendered');

type Objects = Partial<Record<ResourceName, KubeObject[]>>;

function objectsIn(file: string, into: Objects): void {
  const parsed = load(readFileSync(file, 'utf8')) as { kind?: string; items?: KubeObject[] } | null;
  const items = parsed?.kind?.endsWith('List') ? (parsed.items ?? []) : parsed ? [parsed as KubeObject] : [];
  for (const object of items) {
    const resource = object?.kind ? resourceForKind(object.kind) : undefined;
    if (resource) (into[resource] ??= []).push(object);
  }
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** Each case: the objects of one real cluster, as read from the fixture files (nothing projected). */
function cases(): { name: string; objects: Objects }[] {
  const crds = readdirSync(CRDS).filter((name) => name.endsWith('.yaml'));
  const gates = readdirSync(FEATURE_GATES).filter((name) => name.endsWith('.yaml'));
  const out: { name: string; objects: Objects }[] = [];
  const scenarios = readdirSync(OC_STATUS).filter((name) => name.endsWith('-cv.yaml'));
  for (const [index, cvFile] of scenarios.entries()) {
    const prefix = cvFile.slice(0, -'-cv.yaml'.length);
    const objects: Objects = {};
    for (const part of ['cv', 'co', 'mc', 'mcp', 'node']) {
      const file = join(OC_STATUS, `${prefix}-${part}.yaml`);
      if (readdirSync(OC_STATUS).includes(`${prefix}-${part}.yaml`)) objectsIn(file, objects);
    }
    // The installed ClusterVersion CRD of some release: an older one rejects capabilities (failure B's finding).
    const crd = crds[index % crds.length];
    objectsIn(join(CRDS, crd), objects);
    // A release's FeatureGate, its versions set as the operator would, listing only the oldest in the history:
    // where the history has more than one, failure A's finding.
    const gateFile = gates[index % gates.length];
    objectsIn(join(FEATURE_GATES, gateFile), objects);
    const history = (objects.clusterversions?.[0]?.status as { history?: { version?: string }[] } | undefined)?.history;
    for (const gate of objects.featuregates ?? []) {
      for (const entry of (gate.status as { featureGates: { version: string }[] }).featureGates) {
        entry.version = history?.at(-1)?.version ?? '';
      }
    }
    out.push({ name: `${prefix} with the ${crd} ClusterVersion CRD and the ${gateFile} FeatureGate`, objects });
  }
  const mustGather: Objects = {};
  for (const file of yamlFiles(MUST_GATHER)) objectsIn(file, mustGather);
  out.push({ name: 'must-gather azure-4.8.11', objects: mustGather });
  return out;
}

function snapshotOf(objects: Objects): Snapshot {
  return { objects, transitions: [], logs: [], probes: [] };
}

function projected(objects: Objects): Objects {
  return Object.fromEntries(
    Object.entries(objects).map(([resource, items]) => [
      resource,
      items.map((object) => projectObject(resource as ResourceName, object)),
    ]),
  );
}

const NOW = '2026-01-01T00:00:00Z';

function assess(objects: Objects) {
  const sources = Object.keys(objects).map((resource) => ({
    resource,
    status: 'synced' as const,
    since: NOW,
    lastSyncAt: NOW,
  }));
  return assessCluster({ id: 'c', name: 'c', snapshot: snapshotOf(objects), context: makeContext(NOW), sources });
}

describe('the watch cache projections on real objects', () => {
  const all = cases();

  it.each(all.map((c) => [c.name, c] as const))('every detector says the same of %s', (_name, { objects }) => {
    const raw = structuredClone(objects);
    const before = assess(raw);
    const slim = projected(objects);
    expect(slim).not.toEqual(objects);
    expect(assess(slim)).toEqual(before);
    // the projection leaves its input alone
    expect(objects).toEqual(raw);
  });

  it('covers findings, failure B among them, and drops most of the bytes of the big kinds', () => {
    const findings = all.flatMap((c) => assess(c.objects).health.findings);
    expect(findings.length).toBeGreaterThan(10);
    expect(findings.some((finding) => finding.detector === 'status-write-rejection')).toBe(true);
    expect(findings.some((finding) => finding.detector === 'featuregate-coverage')).toBe(true);
    const size = (objects: Objects, resource: ResourceName) => JSON.stringify(objects[resource] ?? []).length;
    // Ignition payloads and CRD schemas are nearly all of their objects; a node keeps most of what is not its images.
    const kept = { machineconfigs: 0.05, customresourcedefinitions: 0.1, featuregates: 0.15, nodes: 0.7 };
    for (const [resource, share] of Object.entries(kept) as [ResourceName, number][]) {
      const before = all.reduce((sum, c) => sum + size(c.objects, resource), 0);
      const after = all.reduce((sum, c) => sum + size(projected(c.objects), resource), 0);
      expect(after, resource).toBeLessThan(before * share);
    }
  });
});
