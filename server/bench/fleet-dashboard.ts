/** The fleet bench's dashboard: the production server in a child process, and what its /metrics say. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseExposition } from '@/lib/metrics/exposition';
import { needsBuild } from '@/server/cli/build-state';
import type { FleetTopology } from './fleet-topology';

/** The running dashboard. */
export interface BenchDashboard {
  process: ChildProcess;
  base: string;
  /** When it was spawned (`performance.now()`), after any build. */
  startedAt: number;
  /** How it exited (signal or code), while it has not: undefined. */
  exited(): string | undefined;
}

/**
 * Builds the dashboard when its build is stale (not timed), then starts `server/cli/start.ts` on `port` against the
 * topology's kubeconfig, with its data in `dir`.
 */
export async function startDashboard(options: {
  topology: FleetTopology;
  port: number;
  heapMb: number;
  dir: string;
}): Promise<BenchDashboard> {
  if (needsBuild(process.cwd())) {
    console.log('fleet bench: building the dashboard first (not timed) ...');
    const code = await new Promise<number | null>((resolve) =>
      spawn('npx', ['next', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } }).on(
        'exit',
        resolve,
      ),
    );
    if (code !== 0) throw new Error(`next build failed (exit ${code})`);
  }
  const startedAt = performance.now();
  // As deployed (deploy/openshift) unless --dashboard-heap-mb: the heap limit the container's memory limit leaves
  // for JavaScript.
  const child = spawn(
    process.execPath,
    [
      '--conditions=react-server',
      '--import',
      'tsx',
      'server/cli/start.ts',
      ...options.topology.dashboardArgs,
      '--port',
      String(options.port),
      '--no-build',
      '--max-heap-mb',
      String(options.heapMb),
    ],
    {
      env: { ...process.env, UPDATE_HEALTH_DATA_DIR: join(options.dir, 'data'), NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  let exited: string | undefined;
  // A bench stopped by a signal (Ctrl-C, a timeout) takes its dashboard with it: left running, it holds the port.
  const stop = () => {
    if (exited === undefined) child.kill('SIGTERM');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', stop);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  child.on('exit', (code, signal) => {
    exited = signal ?? `code ${code}`;
    process.off('exit', stop);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  });
  return { process: child, base: `http://127.0.0.1:${options.port}`, startedAt, exited: () => exited };
}

/** The dashboard's memory and counters; the event-loop delay is since the previous scrape (prom-client resets it). */
export async function metricsOf(base: string) {
  const { samples } = parseExposition(await (await fetch(`${base}/metrics`)).text());
  const sum = (name: string, labels: Record<string, string> = {}) =>
    samples
      .filter(
        (sample) =>
          sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      )
      .reduce((total, sample) => total + sample.value, 0);
  return {
    heap: sum('nodejs_heap_size_used_bytes'),
    rss: sum('process_resident_memory_bytes'),
    slowClientsEnded: sum('update_health_sse_slow_clients_ended_total'),
    loopDelayP99Ms: Math.round(sum('nodejs_eventloop_lag_p99_seconds') * 1000),
    loopDelayMaxMs: Math.round(sum('nodejs_eventloop_lag_max_seconds') * 1000),
    evaluations: sum('update_health_detector_evaluation_seconds_count'),
    evaluationSeconds: sum('update_health_detector_evaluation_seconds_sum'),
    cpuSeconds: sum('process_cpu_seconds_total'),
    majorGcSeconds: sum('nodejs_gc_duration_seconds_sum', { kind: 'major' }),
    majorGcs: sum('nodejs_gc_duration_seconds_count', { kind: 'major' }),
  };
}
