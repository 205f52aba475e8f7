import 'server-only';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { MustGatherResultDto } from '@/lib/api/must-gather-dto';
import { analyzeOffline, analyzeOfflineStream, type OfflineAnalysis } from './analyze-offline';
import { OfflineInputError } from './errors';
import { formatBytes } from './limits';
import { ResultStore, type ResultStore as Store } from './result-store';

/** Largest upload accepted, in bytes (compressed archives; real must-gathers are a few hundred MB). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024 * 1024;
/** Transitions kept for the read-only condition timeline, as the live engine bounds its history. */
const MAX_TRANSITIONS = 2_000;

/** Why a server-side path may not be opened: outside the configured root, or not there. */
export class MustGatherPathError extends Error {
  override readonly name = 'MustGatherPathError';

  constructor(message: string, readonly code: 'outside_root' | 'not_found') {
    super(message);
  }
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Resolves a user-typed path (absolute, or relative to `root`) to a real path under `root`. Symbolic links are
 * resolved first, so neither `..` nor a link can reach outside; the message never reveals what exists outside.
 */
export async function resolveUnderRoot(root: string, input: string): Promise<string> {
  if (input.includes('\0')) throw new MustGatherPathError('the path contains a NUL byte', 'outside_root');
  const outside = () => new MustGatherPathError(`only paths under ${root} may be opened`, 'outside_root');
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) {
    if (!inside(resolve(root), resolve(root, input))) throw outside();
    throw new MustGatherPathError(`the must-gather directory ${root} does not exist on the server`, 'not_found');
  }
  const candidate = resolve(realRoot, input);
  if (!inside(realRoot, candidate)) throw outside();
  const real = await realpath(candidate).catch(() => {
    throw new MustGatherPathError(`${input}: no such file or directory under ${root}`, 'not_found');
  });
  if (!inside(realRoot, real)) throw outside();
  await stat(real);
  return real;
}

/** Passes `source` through, failing with a `limit` {@link OfflineInputError} once more than `maxBytes` arrived. */
export async function* capped(source: AsyncIterable<Uint8Array>, maxBytes: number, label: string): AsyncIterable<Uint8Array> {
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

function toResult(analysis: OfflineAnalysis, label: string, source: MustGatherResultDto['source']): MustGatherResultDto {
  const id = ResultStore.newId();
  const { health, offline } = analysis;
  return {
    id,
    label,
    source,
    analyzedAt: new Date().toISOString(),
    clusterTime: new Date(offline.now).toISOString(),
    clusterTimeSource: offline.nowSource,
    health,
    series: { clusterId: health.cluster.id, now: offline.now, samples: {}, transitions: offline.snapshot.transitions.slice(-MAX_TRANSITIONS) },
    warnings: offline.warnings,
    stats: offline.stats,
  };
}

/** Analyzes a path under `root` and stores the result. */
export async function analyzeServerPath(store: Store, root: string, input: string): Promise<MustGatherResultDto> {
  const path = await resolveUnderRoot(root, input);
  const label = relative(await realpath(root), path) || '.';
  const analysis = await analyzeOffline([path]);
  const result = toResult(analysis, label, 'path');
  store.put(result, analysis.offline.snapshot);
  return result;
}

/** Analyzes an uploaded `.tar` / `.tar.gz` byte stream (never buffered whole) and stores the result. */
export async function analyzeUpload(
  store: Store, body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, label: string, maxBytes = MAX_UPLOAD_BYTES,
): Promise<MustGatherResultDto> {
  const chunks = Symbol.asyncIterator in body ? body : webStreamChunks(body);
  const analysis = await analyzeOfflineStream(capped(chunks, maxBytes, label), label);
  const result = toResult(analysis, label, 'upload');
  store.put(result, analysis.offline.snapshot);
  return result;
}
