import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeList } from '@/lib/k8s/types';
import { serveCluster, type ServedCluster } from '@/server/simulator/api-server';
import { createSimulatedCluster } from '@/server/simulator/core';
import { realisticPod } from './pod-generator';

/** Options of the simulator benchmark. */
export interface SimBenchOptions {
  pods?: number;
  watchEvents?: number;
  pageSize?: number;
}

/** One result row. */
export interface BenchRow {
  measure: string;
  value: string;
  detail: string;
}

function get(served: ServedCluster, agent: Agent, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${served.url}${path}`,
      {
        agent,
        headers: { Authorization: `Bearer ${served.tokens.reader}` },
        ca: Buffer.from(served.caData, 'base64').toString(),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A separate client process: watches, parses every line, reports events/s from first to last event. */
const WATCH_CLIENT = `
const https = require('node:https');
const want = Number(process.env.WATCH_EVENTS);
let events = 0, bytes = 0, first = 0, buffer = '';
const req = https.request(process.env.WATCH_URL, { headers: { Authorization: 'Bearer ' + process.env.WATCH_TOKEN }, ca: Buffer.from(process.env.WATCH_CA, 'base64') }, (res) => {
  process.stdout.write('connected\\n');
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    if (!first) first = performance.now();
    bytes += Buffer.byteLength(chunk);
    buffer += chunk;
    let i;
    while ((i = buffer.indexOf('\\n')) >= 0) {
      JSON.parse(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      if (++events >= want) {
        process.stdout.write(JSON.stringify({ events, ms: performance.now() - first, bytes }) + '\\n');
        process.exit(0);
      }
    }
  });
});
req.end();
`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Benchmarks the embedded API server with a 50,000-pod cluster of ~8 KB pods: paged LIST (limit 500), a watch
 * stream measured by a client, and `kubectl get pods -A -o json`. Prints a table and returns the rows.
 */
export async function runSimBench(options: SimBenchOptions = {}): Promise<BenchRow[]> {
  const podCount = options.pods ?? Number(process.env.SIM_BENCH_PODS ?? 50_000);
  const watchEvents = options.watchEvents ?? 20_000;
  const pageSize = options.pageSize ?? 500;
  const rows: BenchRow[] = [];
  const record = (row: BenchRow) => {
    rows.push(row);
    console.error(`  … ${row.measure}: ${row.value}`);
  };
  const cluster = createSimulatedCluster({ seed: 42, historyLimit: Math.max(10_000, watchEvents + 1_000) });

  let started = performance.now();
  let sampleBytes = 0;
  let managedBytes = 0;
  for (let i = 0; i < podCount; i++) {
    const pod = realisticPod(i);
    if (i < 200) {
      sampleBytes += JSON.stringify(pod).length;
      managedBytes += JSON.stringify(pod.metadata.managedFields).length;
    }
    cluster.store.importObject('pods', pod);
  }
  record({
    measure: 'load pods into store',
    value: secs(performance.now() - started),
    detail: `${podCount} pods, ${(sampleBytes / 200 / 1024).toFixed(1)} KB each, managedFields ${((managedBytes / sampleBytes) * 100).toFixed(0)}%`,
  });

  const served = await serveCluster(cluster, { bookmarkIntervalMs: 3_600_000 });
  const dir = mkdtempSync(join(tmpdir(), 'sim-bench-'));
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (const pass of ['pass 1', 'pass 2']) {
      started = performance.now();
      let bytes = 0;
      let items = 0;
      let pages = 0;
      let cont: string | undefined;
      do {
        const page = await get(
          served,
          agent,
          `/api/v1/pods?limit=${pageSize}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
        );
        if (page.status !== 200) throw new Error(`list page answered ${page.status}: ${page.body.slice(0, 200)}`);
        bytes += Buffer.byteLength(page.body);
        const list = JSON.parse(page.body) as KubeList;
        items += list.items.length;
        pages++;
        cont = list.metadata.continue;
      } while (cont);
      const elapsed = performance.now() - started;
      record({
        measure: `paged LIST limit=${pageSize}, ${pass}`,
        value: secs(elapsed),
        detail: `${items} items, ${pages} pages, ${mb(bytes)}, ${(items / (elapsed / 1000)).toFixed(0)} items/s, client JSON.parse included`,
      });
    }
    agent.destroy();

    const client = spawn(process.execPath, ['-e', WATCH_CLIENT], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        WATCH_URL: `${served.url}/api/v1/pods?watch=true&resourceVersion=${cluster.store.currentRv()}`,
        WATCH_TOKEN: served.tokens.reader,
        WATCH_CA: served.caData,
        WATCH_EVENTS: String(watchEvents),
      },
    });
    let clientOut = '';
    const connected = new Promise<void>((resolve) =>
      client.stdout.on('data', (chunk: Buffer) => {
        clientOut += chunk.toString();
        if (clientOut.includes('connected')) resolve();
      }),
    );
    const finished = new Promise<void>((resolve) => client.on('close', () => resolve()));
    await connected;
    let produced = 0;
    // The churn source holds its objects, as a controller would; the server still serialises every event.
    const sources = cluster.store
      .list('pods')
      .slice(0, 2_000)
      .map((entry) => entry.object);
    const produce = () => {
      const end = Math.min(produced + 500, watchEvents);
      for (; produced < end; produced++) {
        const pod = sources[produced % sources.length];
        cluster.store.importObject('pods', {
          ...pod,
          metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, churn: String(produced) } },
        });
      }
      if (produced < watchEvents) setImmediate(produce);
    };
    produce();
    await finished;
    const measured = JSON.parse(clientOut.slice(clientOut.indexOf('{'))) as {
      events: number;
      ms: number;
      bytes: number;
    };
    record({
      measure: 'WATCH stream to a client process',
      value: `${(measured.events / (measured.ms / 1000)).toFixed(0)} events/s`,
      detail: `${measured.events} MODIFIED events in ${secs(measured.ms)}, ${mb(measured.bytes)}, client parses every line (first to last event)`,
    });

    if (process.env.SIM_BENCH_KUBECTL === '0') return rows;
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, served.kubeconfig('reader'));
    started = performance.now();
    const result = await new Promise<{ code: number; bytes: number; stderr: string }>((resolve) => {
      const child = spawn(
        'kubectl',
        ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', 'pods', '-A', '-o', 'json'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let bytes = 0;
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, bytes, stderr }));
    });
    record({
      measure: 'kubectl get pods -A -o json',
      value: secs(performance.now() - started),
      detail:
        result.code === 0
          ? `${mb(result.bytes)} of output`
          : `failed rc=${result.code}: ${result.stderr.slice(0, 200)}`,
    });
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
    printTable(rows);
  }
  return rows;
}

function printTable(rows: BenchRow[]): void {
  const widths = [Math.max(...rows.map((row) => row.measure.length)), Math.max(...rows.map((row) => row.value.length))];
  console.log(`${'measure'.padEnd(widths[0])}  ${'value'.padEnd(widths[1])}  detail`);
  for (const row of rows)
    console.log(`${row.measure.padEnd(widths[0])}  ${row.value.padEnd(widths[1])}  ${row.detail}`);
}
