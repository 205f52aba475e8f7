import 'server-only';
import { parentPort, workerData } from 'node:worker_threads';
import type { AnalysisJob, ParentMessage, WorkerMessage } from './analysis-protocol';
import { analyzeOffline, analyzeOfflineStream } from './analyze-offline';
import type { OfflineErrorCode } from './errors';

/** Chunks asked for ahead of the parser, so reading and parsing overlap without the upload piling up here. */
const WINDOW = 8;

const port = parentPort;
if (!port) throw new Error('analysis-worker runs as a worker thread');
const job = workerData as AnalysisJob;

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

/** The upload as the parent feeds it: `WINDOW` chunks requested ahead, one more for each one consumed. */
async function* uploadChunks(): AsyncIterable<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  port!.on('message', (message: ParentMessage) => {
    if (message.type === 'chunk') queue.push(message.chunk);
    else ended = true;
    wake?.();
    wake = undefined;
  });
  for (let i = 0; i < WINDOW; i++) send({ type: 'pull' });
  for (;;) {
    const chunk = queue.shift();
    if (chunk) {
      if (!ended) send({ type: 'pull' });
      yield chunk;
    } else if (ended) {
      return;
    } else {
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }
}

async function run(): Promise<void> {
  const options = { id: job.clusterId, limits: job.limits };
  const { health, offline } =
    job.kind === 'path'
      ? await analyzeOffline([job.path], options)
      : await analyzeOfflineStream(uploadChunks(), job.label, options);
  const { snapshot, now, nowSource, warnings, stats } = offline;
  send({ type: 'done', analysis: { health, offline: { snapshot, now, nowSource, warnings, stats } } });
}

run().catch((error: unknown) => {
  const failure = error instanceof Error ? error : new Error(String(error));
  const code = (failure as { code?: unknown }).code;
  const errorCode = typeof code === 'string' ? (code as OfflineErrorCode) : undefined;
  send({ type: 'failed', error: { name: failure.name, code: errorCode, message: failure.message } });
});
