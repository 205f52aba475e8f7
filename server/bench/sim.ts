import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeList } from '@/lib/k8s/types';
import { serveCluster, type ServedCluster } from '@/server/simulator/api-server';
import { createSimulatedCluster } from '@/server/simulator/core';
import { openStream } from '@/server/simulator/watch-client';
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
    const req = request(`${served.url}${path}`, { agent, headers: { Authorization: `Bearer ${served.tokens.reader}` }, ca: Buffer.from(served.caData, 'base64').toString() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Benchmarks the embedded API server with a 50,000-pod cluster of ~8 KB pods: paged LIST (limit 500), a watch
 * stream measured by a client, and `kubectl get pods -A -o json`. Prints a table and returns the rows.
 */
export async function runSimBench(options: SimBenchOptions = {}): Promise<BenchRow[]> {
  const podCount = options.pods ?? 50_000;
  const watchEvents = options.watchEvents ?? 20_000;
  const pageSize = options.pageSize ?? 500;
  const rows: BenchRow[] = [];
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
  rows.push({ measure: 'load pods into store', value: secs(performance.now() - started), detail: `${podCount} pods, ${(sampleBytes / 200 / 1024).toFixed(1)} KB each, managedFields ${((managedBytes / sampleBytes) * 100).toFixed(0)}%` });

  const served = await serveCluster(cluster, { bookmarkIntervalMs: 3_600_000 });
  const dir = mkdtempSync(join(tmpdir(), 'sim-bench-'));
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (const pass of ['cold (serialises)', 'warm (cached JSON)']) {
      started = performance.now();
      let bytes = 0;
      let items = 0;
      let pages = 0;
      let cont: string | undefined;
      do {
        const page = await get(served, agent, `/api/v1/pods?limit=${pageSize}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
        if (page.status !== 200) throw new Error(`list page answered ${page.status}: ${page.body.slice(0, 200)}`);
        bytes += Buffer.byteLength(page.body);
        const list = JSON.parse(page.body) as KubeList;
        items += list.items.length;
        pages++;
        cont = list.metadata.continue;
      } while (cont);
      const elapsed = performance.now() - started;
      rows.push({ measure: `paged LIST limit=${pageSize}, ${pass}`, value: secs(elapsed), detail: `${items} items, ${pages} pages, ${mb(bytes)}, ${(items / (elapsed / 1000)).toFixed(0)} items/s, client JSON.parse included` });
    }
    agent.destroy();

    const watch = openStream(served, `/api/v1/pods?watch=true&resourceVersion=${cluster.store.currentRv()}`, { identity: 'reader' });
    await watch.status;
    let produced = 0;
    const snapshot = cluster.store.list('pods');
    const produce = () => {
      const end = Math.min(produced + 500, watchEvents);
      for (; produced < end; produced++) {
        const entry = snapshot[produced % snapshot.length];
        if (!entry) break;
        const pod = entry.object;
        cluster.store.importObject('pods', { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, churn: String(produced) } } });
      }
      if (produced < watchEvents) setImmediate(produce);
    };
    const watchStart = performance.now();
    produce();
    await watch.waitFor((lines) => lines.length >= watchEvents, 300_000);
    const watchElapsed = performance.now() - watchStart;
    rows.push({ measure: 'WATCH stream to a client', value: `${(watchEvents / (watchElapsed / 1000)).toFixed(0)} events/s`, detail: `${watchEvents} MODIFIED events in ${secs(watchElapsed)}, ${mb(watch.bytes())}, client parses every line` });
    watch.abort();

    const kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, served.kubeconfig('reader'));
    started = performance.now();
    const result = await new Promise<{ code: number; bytes: number; stderr: string }>((resolve) => {
      const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', 'pods', '-A', '-o', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let bytes = 0;
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, bytes, stderr }));
    });
    rows.push({ measure: 'kubectl get pods -A -o json', value: secs(performance.now() - started), detail: result.code === 0 ? `${mb(result.bytes)} of output` : `failed rc=${result.code}: ${result.stderr.slice(0, 200)}` });
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(rows);
  return rows;
}

function printTable(rows: BenchRow[]): void {
  const widths = [Math.max(...rows.map((row) => row.measure.length)), Math.max(...rows.map((row) => row.value.length))];
  console.log(`${'measure'.padEnd(widths[0])}  ${'value'.padEnd(widths[1])}  detail`);
  for (const row of rows) console.log(`${row.measure.padEnd(widths[0])}  ${row.value.padEnd(widths[1])}  ${row.detail}`);
}
