/**
 * `npm run bench -- watch-memory [--clusters 200] [--arena-max N] [--snapshot FILE] [--json FILE]`: what the
 * dashboard's engines cost per idle cluster and per open watch. Starts N idle (`steady`) embedded clusters behind
 * the embedded hub in this process, then the dashboard's fleet (hub discovery, one engine per cluster, every watch
 * through cluster-proxy) in a child process of its own, so the child's memory is the dashboard's only. The child
 * reads `process.memoryUsage()` after a full GC before the fleet starts and once every cluster has settled and
 * stayed idle a while, and reports the difference per cluster and per watch: heap, external, array buffers and RSS
 * (RSS − heap is nghttp2/TLS native state, Buffers and malloc arenas). `--arena-max` sets `MALLOC_ARENA_MAX` in the
 * child's environment; `--snapshot` keeps its heap snapshot at the end (read it with `heap-summary`).
 *
 * The child runs the TypeScript sources through tsx, which compiles with esbuild's `keepNames`: every named closure
 * gets its own `name` property, a property store of about 250 bytes that the built dashboard (bundled without
 * `keepNames`) does not have. The child's heap snapshots before and after count those stores, and the bench reports
 * the heap figures both as measured and without them (`bundled`), the estimate for the deployed dashboard.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { heapGraph, type HeapGraph, type HeapSnapshotJson } from './heap-summary';

const IDLE_MS = 10_000;
const SETTLE_TIMEOUT_MS = 10 * 60_000;
const REPORT = 'watch-memory report: ';

/** `process.memoryUsage()` figures the bench compares. */
export interface MemoryFigures {
  heapUsed: number;
  /** The heap V8 has committed: used plus free space in its pages (RSS counts all of it). */
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

/** What the child reports. */
export interface WatchMemoryChild {
  clusters: number;
  watches: number;
  sourcesByStatus: Record<string, number>;
  settleSeconds: number;
  before: MemoryFigures;
  after: MemoryFigures;
  /** Per V8 heap space at the end: committed and used bytes (where the committed heap's free part is). */
  spaces: Record<string, { size: number; used: number }>;
  /** Bytes of closures' own property stores (tsx's `keepNames`), before and after. */
  closureNames?: { before: number; after: number };
  /** After the fleet stopped (and a GC): what is left is code, module state and malloc's high-water mark. */
  stopped?: MemoryFigures;
  /**
   * A full collection of the settled heap (the fastest of five, milliseconds: the one least disturbed by the fleet on
   * the other core): what marking everything live costs when it is all done at once.
   */
  fullGcMs?: { settled: number; stopped: number };
}

/** What the bench reports. */
export interface WatchMemoryResult extends WatchMemoryChild {
  arenaMax: string | undefined;
  delta: MemoryFigures & { rssMinusHeap: number };
  perCluster: MemoryFigures & { rssMinusHeap: number };
  perWatch: MemoryFigures & { rssMinusHeap: number };
  /** Heap the stopped fleet freed, per cluster and per watch (the engines' state without compiled code). */
  heldHeap: { total: number; perCluster: number; perWatch: number };
  /** The heap delta without tsx's closure name stores: what the built dashboard would use. */
  bundled: { heapUsed: number; perCluster: number; perWatch: number };
  /**
   * Live heap objects (heap snapshot nodes) the fleet added, per cluster and per watch: marking visits each, so they,
   * more than bytes, set how long a full collection holds the event loop.
   */
  objects: { total: number; perCluster: number; perWatch: number };
}

/** The collector's `gc()`, exposed by `--expose-gc`. */
const exposedGc = (): (() => void) => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc (npm run bench does)');
  return gc;
};

const collect = () => {
  const gc = exposedGc();
  for (let i = 0; i < 3; i += 1) gc();
};

/** The fastest of five full collections in a row. */
const fullGcMs = (): number => {
  const gc = exposedGc();
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    gc();
    times.push(performance.now() - start);
  }
  return Math.round(Math.min(...times) * 10) / 10;
};

const figures = (): MemoryFigures => {
  const { heapUsed, heapTotal, external, arrayBuffers, rss } = process.memoryUsage();
  return { heapUsed, heapTotal, external, arrayBuffers, rss };
};

type Figures = WatchMemoryResult['delta'];

const KEYS = ['heapUsed', 'heapTotal', 'external', 'arrayBuffers', 'rss'] as const;

const difference = (after: MemoryFigures, before: MemoryFigures): Figures => {
  const out = { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0, rss: 0, rssMinusHeap: 0 };
  for (const key of KEYS) out[key] = after[key] - before[key];
  out.rssMinusHeap = out.rss - out.heapUsed;
  return out;
};

const per = (delta: Figures, n: number): Figures => {
  const out = { ...delta };
  for (const key of [...KEYS, 'rssMinusHeap'] as const) out[key] = Math.round(delta[key] / Math.max(1, n));
  return out;
};

/** Runs the bench; see the file comment. */
export async function runWatchMemory(argv: string[] = process.argv.slice(3)): Promise<WatchMemoryResult | undefined> {
  const { values } = parseArgs({
    args: argv,
    options: {
      clusters: { type: 'string' },
      'arena-max': { type: 'string' },
      snapshot: { type: 'string' },
      json: { type: 'string' },
      child: { type: 'string' },
      namespace: { type: 'string' },
    },
    strict: true,
  });
  const clusters = Number(values.clusters ?? 200);
  if (!Number.isInteger(clusters) || clusters <= 0)
    throw new Error(`--clusters must be a positive integer, got "${values.clusters}"`);
  if (values['arena-max'] !== undefined && !/^[1-9]\d*$/.test(values['arena-max']))
    throw new Error(`--arena-max must be a positive integer, got "${values['arena-max']}"`);
  if (values.child) {
    if (!values.snapshot) throw new Error('--child needs --snapshot DIR');
    await runChild(values.child, values.namespace ?? '', clusters, values.snapshot);
    return undefined;
  }
  return runParent(clusters, values['arena-max'], values.snapshot, values.json);
}

async function runParent(
  clusters: number,
  arenaMax: string | undefined,
  snapshot: string | undefined,
  json: string | undefined,
): Promise<WatchMemoryResult> {
  const { startFleet } = await import('@/server/simulator/fleet');
  const { HUB_CONTEXT, fleetMembers, startHub } = await import('@/server/simulator/hub/serve-hub');
  const dir = mkdtempSync(join(tmpdir(), 'watch-memory-'));
  console.log(`watch-memory: starting ${clusters} idle clusters behind the hub ...`);
  const fleet = await startFleet({ scenarios: ['steady'], size: clusters, speed: 1, listen: false });
  const hub = await startHub(fleetMembers(fleet), { realTime: true });
  try {
    const kubeconfig = join(dir, 'hub-kubeconfig.yaml');
    writeFileSync(kubeconfig, hub.kubeconfig('reader'), { mode: 0o600 });
    const args = ['watch-memory', '--child', `${kubeconfig}:${HUB_CONTEXT}`, '--namespace', hub.namespace];
    args.push('--clusters', String(clusters), '--snapshot', dir);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      UPDATE_HEALTH_DATA_DIR: join(dir, 'data'),
    };
    if (arenaMax) env.MALLOC_ARENA_MAX = arenaMax;
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', '--expose-gc', '--import', 'tsx', 'server/bench/run.ts', ...args],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line.startsWith('watch-memory: ')) console.log(line);
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const line = out
      .split('\n')
      .find((l) => l.startsWith(REPORT))
      ?.slice(REPORT.length);
    if (code !== 0 || !line) throw new Error(`the dashboard process failed (exit ${code})`);
    const report = JSON.parse(line) as WatchMemoryChild;
    const beforeGraph = heapGraph(
      JSON.parse(readFileSync(join(dir, 'before.heapsnapshot'), 'utf8')) as HeapSnapshotJson,
    );
    const afterGraph = heapGraph(JSON.parse(readFileSync(join(dir, 'after.heapsnapshot'), 'utf8')) as HeapSnapshotJson);
    report.closureNames = { before: closureNameBytes(beforeGraph), after: closureNameBytes(afterGraph) };
    const objects = liveObjects(afterGraph) - liveObjects(beforeGraph);
    if (snapshot) copyFileSync(join(dir, 'after.heapsnapshot'), snapshot);
    const names = report.closureNames.after - report.closureNames.before;
    const held = report.after.heapUsed - (report.stopped?.heapUsed ?? report.after.heapUsed);
    const full = difference(report.after, report.before);
    const bundled = full.heapUsed - names;
    const result: WatchMemoryResult = {
      ...report,
      arenaMax,
      delta: full,
      perCluster: per(full, report.clusters),
      perWatch: per(full, report.watches),
      heldHeap: {
        total: held,
        perCluster: Math.round(held / report.clusters),
        perWatch: Math.round(held / Math.max(1, report.watches)),
      },
      bundled: {
        heapUsed: bundled,
        perCluster: Math.round(bundled / report.clusters),
        perWatch: Math.round(bundled / Math.max(1, report.watches)),
      },
      objects: {
        total: objects,
        perCluster: Math.round(objects / report.clusters),
        perWatch: Math.round(objects / Math.max(1, report.watches)),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    if (json) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    await hub.close();
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Objects reachable from the roots (the snapshot's nodes a collection would mark). */
function liveObjects(graph: HeapGraph): number {
  let live = 0;
  for (let n = 0; n < graph.nodeCount; n += 1) if (graph.dominator[n] !== -1) live += 1;
  return live;
}

/** Bytes of the property stores closures own (esbuild's `keepNames` gives every named closure one). */
function closureNameBytes(graph: HeapGraph): number {
  let bytes = 0;
  for (let n = 0; n < graph.nodeCount; n += 1) {
    if (graph.className[n] !== '(closure)' || graph.dominator[n] === -1) continue;
    for (let e = graph.firstEdge[n]; e < graph.firstEdge[n + 1]; e += 1) {
      const size = graph.selfSize[graph.edgeTarget[e]];
      // an empty store is shared by all closures; an own one is larger
      if (graph.edgeName[e] === 'properties' && size > 16) bytes += size;
    }
  }
  return bytes;
}

async function runChild(hub: string, namespace: string, clusters: number, dir: string) {
  const { Fleet } = await import('@/server/engine/fleet');
  const { hubSource } = await import('@/server/fleet-sources/hub-source');
  const cut = hub.lastIndexOf(':');
  collect();
  // before the figures, so the snapshot's own allocations are part of the baseline
  writeHeapSnapshot(join(dir, 'before.heapsnapshot'));
  collect();
  const before = figures();
  const started = performance.now();
  const fleet = new Fleet();
  fleet.follow([hubSource({ kubeconfig: hub.slice(0, cut), context: hub.slice(cut + 1), namespace })]);
  const deadline = started + SETTLE_TIMEOUT_MS;
  let reported = started;
  while (fleet.members().length < clusters || fleet.unsettled().length > 0) {
    if (performance.now() > deadline) throw new Error(`not settled: ${fleet.unsettled().length} clusters`);
    if (performance.now() - reported > 15_000) {
      reported = performance.now();
      console.log(`watch-memory: ${fleet.members().length} found, ${fleet.unsettled().length} unsettled ...`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const settleSeconds = Math.round((performance.now() - started) / 100) / 10;
  // idle a while: first-minute work (evaluations, first bookmarks, lazily compiled code) is over
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  collect();
  const after = figures();
  const settledGcMs = fullGcMs();
  const { sourcesByStatus } = fleet.stats();
  const spaces: WatchMemoryChild['spaces'] = {};
  for (const space of getHeapSpaceStatistics())
    spaces[space.space_name] = { size: space.space_size, used: space.space_used_size };
  writeHeapSnapshot(join(dir, 'after.heapsnapshot'));
  const report: WatchMemoryChild = {
    clusters: fleet.members().length,
    // a synced source holds one open watch; an idle active-tier source holds none
    watches: sourcesByStatus.synced ?? 0,
    sourcesByStatus,
    settleSeconds,
    before,
    after,
    spaces,
  };
  // What the engines hold, without the code they compiled: the heap they free when stopped.
  fleet.stop();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  collect();
  report.stopped = figures();
  report.fullGcMs = { settled: settledGcMs, stopped: fullGcMs() };
  console.log(`${REPORT}${JSON.stringify(report)}`);
}
