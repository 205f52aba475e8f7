/**
 * `npm run bench -- must-gather`: generates a must-gather .tar.gz with ≥ 500 MB of resource YAML (per-namespace pod
 * lists of realistic pods, on top of the real 4.8.11 must-gather fixture, plus logs and lists of kinds the product
 * skips), analyzes it in a child process and reports YAML MB/s per core, wall time and peak RSS, side by side with
 * `gzip -dc <archive> | wc -c` on the same archive.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dump } from 'js-yaml';
import { realisticPod } from './pod-generator';
import { directoryEntries, writeTestArchive, type TestEntry } from '@/server/offline/test-support';

const MB = 1e6;
const FIXTURE = join(process.cwd(), 'server/fixtures/must-gather/azure-4.8.11');
const TEMPLATES = 256;

/** Options of the must-gather benchmark. */
export interface MustGatherBenchOptions {
  /** Resource YAML to generate, in bytes (default 900 MB: with logs and skipped lists, a 1 GB must-gather). */
  yamlBytes?: number;
  /** Pods per namespace list file (default 1,000, ~11 MB). */
  podsPerFile?: number;
  /** Also write the figures as JSON to this file. */
  json?: string;
}

interface ChildReport {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  parsedBytes: number;
  objects: number;
  findings: number;
}

/** Pod list items from a few hundred dumped templates, renamed so every pod is a distinct object. */
function podTemplates(): { text: string; name: string }[] {
  return Array.from({ length: TEMPLATES }, (_, i) => {
    const pod = realisticPod(i);
    const body = dump(pod, { lineWidth: -1 }).trimEnd().split('\n');
    return {
      text: `${body.map((line, n) => (n === 0 ? `- ${line}` : `  ${line}`)).join('\n')}\n`,
      name: pod.metadata.name,
    };
  });
}

async function* benchEntries(options: { yamlBytes: number; podsPerFile: number }): AsyncIterable<TestEntry> {
  yield* directoryEntries(FIXTURE, 'must-gather.local.1/');
  const root = 'must-gather.local.1/quay-io-bench-sha256-0/namespaces';
  const templates = podTemplates();
  let written = 0;
  let index = 0;
  for (let file = 0; written < options.yamlBytes; file++) {
    const ns = `app-${String(file).padStart(3, '0')}`;
    const parts = ['apiVersion: v1\nitems:\n'];
    for (let n = 0; n < options.podsPerFile; n++, index++) {
      const template = templates[index % TEMPLATES];
      // Per-pod digests and ids, as in real pods, so the archive compresses like a real one (~20x), not 60x.
      const text = template.text
        .replaceAll(template.name, `${template.name}-${index.toString(36)}`)
        .replaceAll('9c'.repeat(32), randomBytes(32).toString('hex'))
        .replace('4f'.repeat(32), randomBytes(32).toString('hex'));
      parts.push(text);
    }
    parts.push('kind: PodList\nmetadata:\n  resourceVersion: ""\n');
    const body = Buffer.from(parts.join(''));
    written += body.length;
    yield { name: `${root}/${ns}/core/pods.yaml`, body };
    if (file % 5 === 0) {
      // Data a reader must stream past: a container log and a list of a kind the product ignores.
      const log = Buffer.from(
        Array.from(
          { length: 60_000 },
          (_, n) =>
            `2026-11-20T07:${String(n % 60).padStart(2, '0')}:52.${n % 1000}Z I1120 controller.go:120] synced ${ns}/${randomBytes(6).toString('hex')} in ${n % 97}ms\n`,
        ).join(''),
      );
      yield { name: `${root}/${ns}/pods/server-0/server/server/logs/current.log`, body: log };
      yield {
        name: `${root}/${ns}/core/configmaps.yaml`,
        body: Buffer.from(`apiVersion: v1\nitems: []\nkind: ConfigMapList\n# ${'x'.repeat(1000)}\n`.repeat(3000)),
      };
    }
  }
}

function timed(command: string): Promise<{ ms: number; output: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('sh', ['-c', command]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - start, output: output.trim() }));
  });
}

async function childMain(archive: string): Promise<void> {
  const { analyzeOffline } = await import('@/server/offline/analyze-offline');
  const cpu = process.cpuUsage();
  const start = performance.now();
  const { health, offline } = await analyzeOffline([archive]);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const report: ChildReport = {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    parsedBytes: offline.stats.parsedBytes,
    objects: offline.stats.objects,
    findings: health.findings.length,
  };
  process.stdout.write(JSON.stringify(report));
}

/** Runs the benchmark and prints a table; returns the rows. */
export async function runMustGatherBench(options: MustGatherBenchOptions = {}): Promise<Record<string, string>[]> {
  const settings = { yamlBytes: options.yamlBytes ?? 900 * MB, podsPerFile: options.podsPerFile ?? 1000 };
  const dir = await mkdtemp(join(tmpdir(), 'bench-must-gather-'));
  try {
    const archive = join(dir, 'must-gather.tar.gz');
    const genStart = performance.now();
    await writeTestArchive(archive, benchEntries(settings));
    const archiveBytes = (await stat(archive)).size;
    console.error(
      `generated ${(archiveBytes / MB).toFixed(1)} MB archive in ${((performance.now() - genStart) / 1000).toFixed(1)} s`,
    );
    const gunzip = await timed(`gzip -dc '${archive}' | wc -c`);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', 'server/bench/must-gather.ts', '--child', archive],
      { maxBuffer: 1 << 20 },
    );
    const child = JSON.parse(stdout) as ChildReport;
    const decompressed = Number(gunzip.output);
    const rows = [
      {
        measure: 'archive',
        value: `${(archiveBytes / MB).toFixed(1)} MB gz`,
        detail: `${(decompressed / MB).toFixed(0)} MB decompressed`,
      },
      {
        measure: 'resource YAML parsed',
        value: `${(child.parsedBytes / MB).toFixed(0)} MB`,
        detail: `${child.objects} objects, ${child.findings} findings`,
      },
      {
        measure: 'analyze wall time',
        value: `${(child.wallMs / 1000).toFixed(1)} s`,
        detail: `${(child.parsedBytes / MB / (child.wallMs / 1000)).toFixed(1)} MB/s of YAML (wall)`,
      },
      {
        measure: 'YAML MB/s per core',
        value: (child.parsedBytes / MB / (child.cpuMs / 1000)).toFixed(1),
        detail: `CPU ${(child.cpuMs / 1000).toFixed(1)} s (user+sys, gunzip included)`,
      },
      { measure: 'peak RSS', value: `${child.maxRssMb.toFixed(0)} MB`, detail: 'analysis child process' },
      {
        measure: 'gzip -dc | wc -c',
        value: `${(gunzip.ms / 1000).toFixed(1)} s`,
        detail: `${(decompressed / MB / (gunzip.ms / 1000)).toFixed(0)} MB/s; analyze is ${(child.wallMs / gunzip.ms).toFixed(1)}x its time`,
      },
      {
        measure: 'budget',
        value: child.maxRssMb <= 512 && child.parsedBytes / MB / (child.cpuMs / 1000) >= 10 ? 'met' : 'MISSED',
        detail: 'peak RSS ≤ 512 MB and ≥ 10 MB/s of YAML per core',
      },
    ];
    if (options.json) {
      await writeFile(
        options.json,
        `${JSON.stringify(
          {
            archiveBytes,
            decompressedBytes: decompressed,
            parsedBytes: child.parsedBytes,
            objects: child.objects,
            wallSeconds: child.wallMs / 1000,
            cpuSeconds: child.cpuMs / 1000,
            yamlMBPerCoreSecond: child.parsedBytes / MB / (child.cpuMs / 1000),
            peakRssBytes: Math.round(child.maxRssMb * 1024 * 1024),
            gunzipSeconds: gunzip.ms / 1000,
            ratioToGunzip: child.wallMs / gunzip.ms,
          },
          null,
          2,
        )}\n`,
      );
    }
    console.table(rows);
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child' && process.argv[3]) await childMain(process.argv[3]);
