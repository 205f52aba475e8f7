/**
 * `npm run bench -- fleet-footprint [--clusters 500] [--no-listen] [--hub] [--settle SECONDS] [--idle SECONDS]
 * [--json FILE]`: what an idle embedded cluster costs the simulator process. Starts a fleet of `steady` clusters
 * (listening on HTTPS, or reached in process only with `--no-listen`), optionally the embedded hub in front, and
 * reports the start time, heap and RSS (after a full GC) and the CPU the idle fleet uses over `--idle` seconds
 * (default 10), in total and per cluster. The window opens at once, so it holds the controllers' first resyncs (the
 * CVO writes its status once then); `--settle` waits that long first, for a fleet that has been idle a while. The
 * clusters start together and resync in step, so a window shorter than a minute catches a varying share of them.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFleet } from '@/server/simulator/fleet';
import { fleetMembers, startHub } from '@/server/simulator/hub/serve-hub';

/** The default idle window (seconds); the controllers resync every 4 to 30 s, so 60 or more averages them. */
const IDLE_SECONDS = 10;

/** What the footprint bench reports. */
export interface FleetFootprint {
  clusters: number;
  listen: boolean;
  hub: boolean;
  /** Seconds the fleet ran after its start before the idle CPU was measured (`--settle`), and over how long. */
  settleSeconds: number;
  idleSeconds: number;
  startSeconds: number;
  heapBytes: number;
  rssBytes: number;
  idleCpuCores: number;
  perCluster: { heapBytes: number; rssBytes: number; startMs: number; idleCpuMillicores: number };
}

const collect = () => (globalThis as { gc?: () => void }).gc?.();

/** Runs the footprint bench; see the file comment. */
export async function runFleetFootprint(argv: string[] = process.argv.slice(3)): Promise<FleetFootprint> {
  const { values } = parseArgs({
    args: argv,
    options: {
      clusters: { type: 'string' },
      'no-listen': { type: 'boolean' },
      hub: { type: 'boolean' },
      settle: { type: 'string' },
      idle: { type: 'string' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const clusters = Number(values.clusters ?? 500);
  if (!Number.isInteger(clusters) || clusters <= 0)
    throw new Error(`--clusters must be a positive integer, got "${values.clusters}"`);
  const settleSeconds = Number(values.settle ?? 0);
  if (!Number.isFinite(settleSeconds) || settleSeconds < 0)
    throw new Error(`--settle must be a number of seconds, 0 or more, got "${values.settle}"`);
  const idleSeconds = Number(values.idle ?? IDLE_SECONDS);
  if (!(idleSeconds > 0)) throw new Error(`--idle must be a positive number of seconds, got "${values.idle}"`);
  const listen = !values['no-listen'];
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const fleet = await startFleet({ scenarios: ['steady'], size: clusters, speed: 1, listen });
  const hub = values.hub ? await startHub(fleetMembers(fleet), { realTime: true }) : undefined;
  const startSeconds = (performance.now() - started) / 1000;
  try {
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    collect();
    const cpuBefore = process.cpuUsage();
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const cpu = process.cpuUsage(cpuBefore);
    const idleCpuCores = (cpu.user + cpu.system) / 1000 / (performance.now() - idleStart);
    collect();
    const memory = process.memoryUsage();
    const heapBytes = memory.heapUsed - heapBefore;
    const rssBytes = memory.rss - rssBefore;
    const result: FleetFootprint = {
      clusters,
      listen,
      hub: hub !== undefined,
      settleSeconds,
      idleSeconds,
      startSeconds: Math.round(startSeconds * 10) / 10,
      heapBytes,
      rssBytes,
      idleCpuCores: Math.round(idleCpuCores * 1000) / 1000,
      perCluster: {
        heapBytes: Math.round(heapBytes / clusters),
        rssBytes: Math.round(rssBytes / clusters),
        startMs: Math.round((startSeconds * 1000) / clusters),
        idleCpuMillicores: Math.round((idleCpuCores * 1e6) / clusters) / 1000,
      },
    };
    console.log(JSON.stringify(result, null, 2));
    if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    await hub?.close();
    await fleet.close();
  }
}
