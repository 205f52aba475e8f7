import 'server-only';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MUST_GATHER_MAX_UPLOAD_BYTES, mustGatherClusterId, type MustGatherResultDto } from '@/lib/api/must-gather-dto';
import type { WorkerAnalysis } from './analysis-protocol';
import { runAnalysis, type RunAnalysisOptions } from './analysis-runner';
import { OfflineInputError } from './errors';
import { formatBytes } from './limits';
import { ResultStore, type ResultStore as Store } from './result-store';
/** Transitions kept for the read-only condition timeline, as the live engine bounds its history. */
const MAX_TRANSITIONS = 2_000;

/** Why a server-side path may not be opened: outside the configured root, or not there. */
export class MustGatherPathError extends Error {
  override readonly name = 'MustGatherPathError';

  constructor(
    message: string,
    readonly code: 'outside_root' | 'not_found',
  ) {
    super(message);
  }
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Resolves a user-typed path (absolute, or relative to `root`) to a real path under `root`. Symbolic links are
 * resolved first, so neither `..` nor a link can reach outside. Messages name neither the root nor what a path
 * resolved to: only what the user typed.
 */
export async function resolveUnderRoot(root: string, input: string): Promise<string> {
  if (input.includes('\0')) throw new MustGatherPathError('the path contains a NUL byte', 'outside_root');
  const outside = () =>
    new MustGatherPathError("only paths in the server's must-gather directory may be opened", 'outside_root');
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) {
    if (!inside(resolve(root), resolve(root, input))) throw outside();
    throw new MustGatherPathError('the server has no must-gather directory', 'not_found');
  }
  const candidate = resolve(realRoot, input);
  if (!inside(realRoot, candidate)) throw outside();
  const notFound = () =>
    new MustGatherPathError(`${input}: no such file or directory in the must-gather directory`, 'not_found');
  const real = await realpath(candidate).catch(() => {
    throw notFound();
  });
  if (!inside(realRoot, real)) throw outside();
  await stat(real).catch(() => {
    throw notFound();
  });
  return real;
}

/** `error` with every mention of `root` (the server's must-gather directory) replaced by a relative path. */
function withoutRoot(error: unknown, root: string): unknown {
  if (!(error instanceof OfflineInputError)) return error;
  const message = error.message.split(`${root}${sep}`).join('').split(root).join('.');
  return message === error.message ? error : new OfflineInputError(message, error.code);
}

/** Passes `source` through, failing with a `limit` {@link OfflineInputError} once more than `maxBytes` arrived. */
export async function* capped(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  label: string,
): AsyncIterable<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new OfflineInputError(`${label}: upload larger than ${formatBytes(maxBytes)}`, 'limit');
    yield chunk;
  }
}

/** The chunks of a web stream (a request body); the stream is cancelled when the consumer stops early. */
export async function* webStreamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Options of {@link analyzeServerPath} and {@link analyzeUpload}. */
export interface AnalyzeOptions {
  /** Who asked (the result's owner); null for the local operator. */
  createdBy: string | null;
  /** The analysis worker's heap and limits. */
  worker?: RunAnalysisOptions;
}

function toResult(
  id: string,
  analysis: WorkerAnalysis,
  label: string,
  source: MustGatherResultDto['source'],
  createdBy: string | null,
): MustGatherResultDto {
  const { health, offline } = analysis;
  return {
    id,
    label,
    source,
    createdBy,
    analyzedAt: new Date().toISOString(),
    clusterTime: new Date(offline.now).toISOString(),
    clusterTimeSource: offline.nowSource,
    health,
    series: {
      clusterId: health.cluster.id,
      now: offline.now,
      samples: {},
      transitions: offline.snapshot.transitions.slice(-MAX_TRANSITIONS),
    },
    warnings: offline.warnings,
    stats: offline.stats,
  };
}

/** Analyzes a path under `root` in a worker and stores the result; no message names the root. */
export async function analyzeServerPath(
  store: Store,
  root: string,
  input: string,
  options: AnalyzeOptions,
): Promise<MustGatherResultDto> {
  const path = await resolveUnderRoot(root, input);
  const realRoot = await realpath(root);
  const label = relative(realRoot, path) || '.';
  const id = ResultStore.newId();
  const job = { kind: 'path', path, clusterId: mustGatherClusterId(id) } as const;
  const analysis = await runAnalysis(job, undefined, options.worker).catch((error: unknown) => {
    throw withoutRoot(error, realRoot);
  });
  const result = toResult(id, analysis, label, 'path', options.createdBy);
  store.put(result, analysis.offline.snapshot);
  return result;
}

/** Analyzes an uploaded `.tar` / `.tar.gz` byte stream in a worker (never buffered whole) and stores the result. */
export async function analyzeUpload(
  store: Store,
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  label: string,
  options: AnalyzeOptions,
  maxBytes = MUST_GATHER_MAX_UPLOAD_BYTES,
): Promise<MustGatherResultDto> {
  const chunks = Symbol.asyncIterator in body ? body : webStreamChunks(body);
  const id = ResultStore.newId();
  const job = { kind: 'upload', label, clusterId: mustGatherClusterId(id) } as const;
  const analysis = await runAnalysis(job, capped(chunks, maxBytes, label), options.worker);
  const result = toResult(id, analysis, label, 'upload', options.createdBy);
  store.put(result, analysis.offline.snapshot);
  return result;
}
