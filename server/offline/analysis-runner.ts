import 'server-only';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnalysisJob, AnalysisTarget, ParentMessage, WorkerAnalysis, WorkerMessage } from './analysis-protocol';
import { OfflineInputError } from './errors';
import { ANALYSIS_WORKER_HEAP_MB, limitsForHeap, type OfflineLimits } from './limits';

/** Longest an analysis may run before its worker is stopped. */
export const ANALYSIS_TIMEOUT_MS = 10 * 60_000;

/**
 * The worker's entry, found from the working directory (the project root under `npm start`, the container and
 * tests): inside Next's server bundle a module's own location is the bundle's, not the source tree's.
 */
const WORKER_ENTRY = join(/* turbopackIgnore: true */ process.cwd(), 'server', 'offline', 'analysis-worker.mjs');

/** Options of {@link runAnalysis}. */
export interface RunAnalysisOptions {
  /** The worker's heap (MiB); the limits scale with it (default {@link ANALYSIS_WORKER_HEAP_MB}). */
  heapMb?: number;
  /** Overrides of the limits derived from the heap. */
  limits?: Partial<OfflineLimits>;
  timeoutMs?: number;
}

function workerFailure(error: { name: string; code?: string; message: string }, label: string): OfflineInputError {
  if (error.name === 'OfflineInputError') {
    return new OfflineInputError(error.message, error.code as OfflineInputError['code']);
  }
  return new OfflineInputError(`${label}: the analysis failed (${error.message})`, 'unreadable');
}

/**
 * Runs one analysis in its own worker thread with a bounded heap, so that an archive that needs too much memory
 * or time ends that worker with a `limit` {@link OfflineInputError} and the serving thread never notices. An upload
 * (`source`) is fed to the worker chunk by chunk as it asks, so a slow parser slows the upload, not memory.
 */
export function runAnalysis(
  job: AnalysisTarget,
  source: AsyncIterable<Uint8Array> | undefined,
  options: RunAnalysisOptions = {},
): Promise<WorkerAnalysis> {
  const heapMb = options.heapMb ?? ANALYSIS_WORKER_HEAP_MB;
  const limits = { ...limitsForHeap(heapMb), ...options.limits };
  const label = job.kind === 'path' ? 'the must-gather' : job.label;
  const timeoutMs = options.timeoutMs ?? ANALYSIS_TIMEOUT_MS;
  return new Promise<WorkerAnalysis>((resolve, reject) => {
    const worker = new Worker(WORKER_ENTRY, {
      workerData: { ...job, limits } satisfies AnalysisJob,
      execArgv: ['--conditions=react-server'],
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    const iterator = source?.[Symbol.asyncIterator]();
    let settled = false;
    const finish = (error: Error | undefined, analysis?: WorkerAnalysis) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      void iterator?.return?.()?.catch(() => {});
      if (error) reject(error);
      else resolve(analysis!);
    };
    const timer = setTimeout(() => {
      const seconds = Math.round(timeoutMs / 1_000);
      finish(new OfflineInputError(`${label}: the analysis took longer than ${seconds} s`, 'limit'));
    }, timeoutMs);
    // One read at a time: pulls arrive faster than the body, and an async iterator is not read concurrently.
    let pumping = Promise.resolve();
    const pump = () => {
      pumping = pumping
        .then(async () => {
          if (settled || !iterator) return;
          const next = await iterator.next();
          if (settled) return;
          const message: ParentMessage = next.done ? { type: 'end' } : { type: 'chunk', chunk: next.value };
          worker.postMessage(message);
        })
        .catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'pull') pump();
      else if (message.type === 'done') finish(undefined, message.analysis);
      else finish(workerFailure(message.error, label));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = `${label}: the analysis needs more than the ${heapMb} MiB of memory it may use`;
      const outOfMemoryError = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(outOfMemoryError ? new OfflineInputError(outOfMemory, 'limit') : workerFailure(error, label));
    });
    worker.on('exit', (code) => {
      finish(new OfflineInputError(`${label}: the analysis stopped (exit code ${code})`, 'unreadable'));
    });
  });
}
