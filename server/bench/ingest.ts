/**
 * `npm run bench -- ingest`: our watch layer against the embedded cluster (served by a child process) with
 * 50,000 realistic pods — initial paged sync time and retained heap per cached pod, side by side with
 * `kubectl get pods -A -o json` on the same server; then a 5,000 events/s pod stream: delivered rate, event lag,
 * and event→finding lag of the full engine while a FeatureGate flip makes a finding appear and clear.
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { KubeTransport } from '@/server/watch/kube-transport';
import { Reflector } from '@/server/watch/reflector';

type Message =
  | { type: 'ready'; kubeconfig: string; pods: number }
  | { type: 'flipped'; at: number; drop: boolean }
  | { type: 'churned'; events: number };

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function kubectlTime(kubeconfig: string, cacheDir: string): Promise<{ ms: number; bytes: number; code: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, 'get', 'pods', '-A', '-o', 'json'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('close', (code) => resolve({ ms: performance.now() - started, bytes, code: code ?? 1 }));
  });
}

async function ourSync(kubeconfig: string): Promise<{ ms: number; reflector: Reflector; transport: KubeTransport }> {
  const transport = KubeTransport.fromFile(kubeconfig);
  const reflector = new Reflector({ transport, resource: 'pods' });
  const started = performance.now();
  reflector.start();
  if (!(await reflector.waitForSync(300_000))) throw new Error('pods did not sync');
  return { ms: performance.now() - started, reflector, transport };
}

/** Runs the benchmark and prints a table. */
export async function runIngestBench(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc)
    console.error('note: run with --expose-gc for exact heap figures (npm run bench sets it)');
  const child = fork(join(import.meta.dirname, 'ingest-server.ts'), [], {
    execArgv: ['--conditions=react-server', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters: ((message: Message) => boolean)[] = [];
  child.on('message', (message: Message) => {
    const index = waiters.findIndex((waiter) => waiter(message));
    if (index >= 0) waiters.splice(index, 1);
  });
  const next = <T extends Message['type']>(type: T) =>
    new Promise<Extract<Message, { type: T }>>((resolve) =>
      waiters.push((message) => {
        if (message.type !== type) return false;
        resolve(message as Extract<Message, { type: T }>);
        return true;
      }),
    );
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  const rows: [string, string, string][] = [];
  const row = (measure: string, value: string, detail = '') => {
    rows.push([measure, value, detail]);
    console.error(`  … ${measure}: ${value}`);
  };
  try {
    const ready = await next('ready');
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, ready.kubeconfig);
    const cache = join(dir, 'cache');
    // Warms kubectl's discovery cache so both sides time only the pod list.
    await new Promise((resolve) =>
      spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cache, 'get', 'namespaces'], { stdio: 'ignore' }).on(
        'close',
        resolve,
      ),
    );
    const kubectlRuns: number[] = [];
    const oursRuns: number[] = [];
    let bytes = 0;
    let perPod = NaN;
    for (let round = 0; round < 2; round += 1) {
      if (process.env.INGEST_KUBECTL !== '0') {
        const k = await kubectlTime(kubeconfig, cache);
        if (k.code !== 0) throw new Error(`kubectl failed with ${k.code}`);
        kubectlRuns.push(k.ms);
        bytes = k.bytes;
      }
      const ours = await ourSync(kubeconfig);
      oursRuns.push(ours.ms);
      ours.reflector.stop();
      // Retained size of the cache alone: heap with it minus heap once it is emptied (one-time costs cancel out).
      const cached = ours.reflector.cache.size;
      const withCache = heap();
      ours.reflector.cache.replace([]);
      perPod = (withCache - heap()) / cached;
      ours.transport.close();
    }
    const kubectlMs = Math.min(...kubectlRuns);
    const oursMs = Math.min(...oursRuns);
    row(
      `kubectl get pods -A -o json (${ready.pods} pods)`,
      secs(kubectlMs),
      `${(bytes / 1024 / 1024).toFixed(0)} MB output, best of ${kubectlRuns.length}`,
    );
    row('our paged list-and-store (limit 500)', secs(oursMs), `best of ${oursRuns.length}`);
    row('ratio ours / kubectl', (oursMs / kubectlMs).toFixed(2), 'target ≤ 1.0');
    row('retained heap per cached pod', `${(perPod / 1024).toFixed(2)} KB`, 'projection, target ≤ 2 KB');

    const lags: number[] = [];
    let received = 0;
    let firstAt: number | undefined;
    let lastAt = 0;
    // The engine's own pod watch is the probe: a second watch would double the parsing and skew the figures.
    const connection = createKubeConnection(kubeconfig, 'sim');
    const watch = connection.watch.bind(connection);
    connection.watch = (need, onEvent) =>
      watch(need, (event) => {
        if (event.type === 'modified' && need.resource === 'pods') {
          received += 1;
          firstAt ??= Date.now();
          lastAt = Date.now();
          const at = Number(event.object.metadata.labels?.['bench-produced-at']);
          if (at) lags.push(Date.now() - at);
        }
        onEvent(event);
      });
    const engine = new ClusterEngine({ id: 'bench', name: 'bench', connection });
    let flipAt = 0;
    let expectFinding = false;
    const findingLags: number[] = [];
    engine.subscribe((message) => {
      if (message.type !== 'health' || !flipAt) return;
      const has = message.health.findings.some(
        (finding) => finding.detector === 'featuregate-coverage' && finding.severity === 'critical',
      );
      if (has === expectFinding) {
        findingLags.push(Date.now() - flipAt);
        flipAt = 0;
      }
    });
    engine.start();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const seconds = 20;
    const churnStart = Date.now();
    child.send({ type: 'churn', rate: 5_000, seconds });
    const churned = next('churned');
    for (let flip = 0; flip < (seconds - 2) * 5; flip += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expectFinding = flip % 2 === 0;
      const flipped = next('flipped');
      child.send({ type: 'flip', drop: expectFinding });
      flipAt = (await flipped).at;
    }
    const produced = (await churned).events;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const elapsed = (Date.now() - churnStart) / 1000;
    const streamSeconds = firstAt === undefined ? NaN : (lastAt - firstAt) / 1000;
    row(
      'pod events produced / received',
      `${produced} / ${received}`,
      `${(received / streamSeconds).toFixed(0)} events/s received (first to last event, ${streamSeconds.toFixed(1)} s; ${elapsed.toFixed(1)} s in all)`,
    );
    row(
      'event lag p50 / p99',
      `${quantile(lags, 0.5).toFixed(0)} / ${quantile(lags, 0.99).toFixed(0)} ms`,
      'server write → reflector handler',
    );
    row(
      'event→finding lag p50 / p99',
      `${quantile(findingLags, 0.5).toFixed(0)} / ${quantile(findingLags, 0.99).toFixed(0)} ms`,
      `${findingLags.length} FeatureGate flips under load (max ${Math.max(...findingLags)} ms); target p99 < 500 ms`,
    );
    engine.stop();
  } finally {
    child.send({ type: 'exit' });
    rmSync(dir, { recursive: true, force: true });
  }
  const widths = [0, 1].map((column) => Math.max(...rows.map((entry) => entry[column].length)));
  for (const [measure, value, detail] of rows)
    console.log(`${measure.padEnd(widths[0])}  ${value.padEnd(widths[1])}  ${detail}`);
}
