import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCE_NAMES, RESOURCES, apiVersionOf, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { createSimulatedCluster, runScenario, type SimulatedCluster } from './core';
import type { Scenario } from './types';

/** What {@link writeMustGather} wrote. */
export interface MustGatherWriteResult {
  /** The image-digest wrapper folder every path below sits in. */
  root: string;
  /** Virtual time of the dump (epoch ms), also in the `timestamp` file. */
  at: number;
  files: number;
  objects: number;
  logs: number;
}

/** Thrown when the dump target is unusable (exists and is not an empty directory). */
export class DumpTargetError extends Error {
  override readonly name = 'DumpTargetError';
}

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** A path segment from an object name; names come from the cluster, so refuse anything that could leave the dump. */
function segment(name: string): string {
  if (!SAFE_SEGMENT.test(name) || name.includes('..'))
    throw new DumpTargetError(`refusing to write object name ${JSON.stringify(name)}`);
  return name;
}

function groupDir(info: ResourceInfo): string {
  return info.group === '' ? 'core' : info.group;
}

function yaml(value: unknown): string {
  return dump(value, { lineWidth: -1, noRefs: true, sortKeys: false });
}

/** Go's `time.Time.String()` form that `oc adm must-gather` writes to `timestamp`, with a monotonic suffix. */
function goTime(ms: number, monotonic: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}000000 +0000 UTC m=+${monotonic.toFixed(9)}`;
}

/** The folder `oc adm must-gather` names after the gather image (`quay-io-...-sha256-<digest>`). */
function wrapperName(cluster: SimulatedCluster): string {
  const version = cluster.store.get('clusterversions', undefined, 'version')?.object.status as
    { desired?: { image?: string } } | undefined;
  const digest = createHash('sha256')
    .update(`must-gather:${version?.desired?.image ?? 'embedded'}`)
    .digest('hex');
  return `quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-${digest}`;
}

function containerNames(pod: KubeObject): string[] {
  const spec = pod.spec as { initContainers?: { name: string }[]; containers?: { name: string }[] } | undefined;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].map((container) => container.name);
}

/** Ensures `dir` does not exist or is an empty directory, then creates it. */
export async function prepareDumpDir(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new DumpTargetError(`${dir} exists and is not a directory`);
    throw new DumpTargetError(`cannot use ${dir}: ${error.message}`);
  });
  if (entries.length > 0) throw new DumpTargetError(`${dir} is not empty`);
  await mkdir(dir, { recursive: true });
}

/**
 * Writes the embedded cluster's current state (objects, pod logs) in `oc adm must-gather` layout under `dir`:
 * `<image-folder>/timestamp`, `cluster-scoped-resources/<group>/<resource>/<name>.yaml`, `namespaces/<ns>/<ns>.yaml`,
 * `namespaces/<ns>/<group>/<resource>.yaml` lists, `namespaces/<ns>/pods/<pod>/<pod>.yaml` and container logs at
 * `namespaces/<ns>/pods/<pod>/<container>/<container>/logs/{current,previous}.log`. Objects are written as stored,
 * managedFields included, as `oc adm inspect` writes them. `dir` must not exist or be empty.
 */
export async function writeMustGather(cluster: SimulatedCluster, dir: string): Promise<MustGatherWriteResult> {
  await prepareDumpDir(dir);
  const at = cluster.clock.now();
  const root = join(dir, wrapperName(cluster));
  const made = new Set<string>();
  const result: MustGatherWriteResult = { root, at, files: 0, objects: 0, logs: 0 };
  const write = async (parts: string[], text: string) => {
    const folder = join(root, ...parts.slice(0, -1));
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    await writeFile(join(folder, parts.at(-1)!), text);
    result.files++;
  };

  await write(['timestamp'], `${goTime(at, 0.5)}\n${goTime(at, 1.5)}\n`);
  await write(['version'], 'openshift/must-gather\nembedded-cluster\n');
  const namespaced = new Map<string, Map<ResourceName, KubeObject[]>>();
  for (const resource of RESOURCE_NAMES) {
    const info: ResourceInfo = RESOURCES[resource];
    for (const entry of cluster.store.list(resource)) {
      const object = entry.object;
      result.objects++;
      if (resource === 'namespaces') {
        await write(
          ['namespaces', segment(object.metadata.name), `${segment(object.metadata.name)}.yaml`],
          yaml(object),
        );
      } else if (resource === 'configmaps') {
        // One file per ConfigMap (HyperShift's dump layout): readers pick the few they need by name.
        await write(
          [
            'namespaces',
            segment(object.metadata.namespace ?? 'default'),
            groupDir(info),
            resource,
            `${segment(object.metadata.name)}.yaml`,
          ],
          yaml(object),
        );
      } else if (!info.namespaced) {
        await write(
          ['cluster-scoped-resources', groupDir(info), resource, `${segment(object.metadata.name)}.yaml`],
          yaml(object),
        );
      } else {
        const ns = object.metadata.namespace ?? 'default';
        const byResource = namespaced.get(ns) ?? new Map<ResourceName, KubeObject[]>();
        byResource.set(resource, [...(byResource.get(resource) ?? []), object]);
        namespaced.set(ns, byResource);
      }
    }
  }
  for (const [ns, byResource] of namespaced) {
    for (const [resource, items] of byResource) {
      const info: ResourceInfo = RESOURCES[resource];
      const list = {
        apiVersion: apiVersionOf(resource),
        kind: `${info.kind}List`,
        items,
        metadata: { resourceVersion: '' },
      };
      await write(['namespaces', segment(ns), groupDir(info), `${resource}.yaml`], yaml(list));
    }
    for (const pod of byResource.get('pods') ?? []) await writePod(cluster, ns, pod, write, result);
  }
  return result;
}

async function writePod(
  cluster: SimulatedCluster,
  ns: string,
  pod: KubeObject,
  write: (parts: string[], text: string) => Promise<void>,
  result: MustGatherWriteResult,
): Promise<void> {
  const name = segment(pod.metadata.name);
  const base = ['namespaces', segment(ns), 'pods', name];
  await write([...base, `${name}.yaml`], yaml(pod));
  for (const container of containerNames(pod)) {
    if (!cluster.logs.has(ns, name, container)) continue;
    const logs = [...base, segment(container), container, 'logs'];
    await write([...logs, 'current.log'], cluster.logs.read(ns, name, container));
    result.logs++;
    if (cluster.logs.has(ns, name, container, true)) {
      await write([...logs, 'previous.log'], cluster.logs.read(ns, name, container, { previous: true }));
      result.logs++;
    }
  }
}

/** Options of {@link dumpScenario}. */
export interface DumpScenarioOptions {
  dir: string;
  /** Virtual ms from the start (default: the scenario's `failureAtMs` + 1 minute). */
  atMs?: number;
  seed?: number;
}

/** Plays `scenario` on a fresh embedded cluster up to `atMs` of virtual time and writes its must-gather. */
export async function dumpScenario(scenario: Scenario, options: DumpScenarioOptions): Promise<MustGatherWriteResult> {
  await prepareDumpDir(options.dir);
  const cluster = createSimulatedCluster({ seed: options.seed });
  runScenario(cluster, scenario);
  cluster.clock.advance(options.atMs ?? scenario.failureAtMs + 60_000);
  return writeMustGather(cluster, options.dir);
}
