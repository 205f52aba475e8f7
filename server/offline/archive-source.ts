import 'server-only';
import { createReadStream } from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract, type Header } from 'tar-stream';
import type { OfflineCollector } from './collector';
import { assertSafeEntryName, classifyEntry } from './entry-path';
import { OfflineInputError } from './errors';
import { LogTail } from './bounded-text';
import { ingestEntry, isTextEntry } from './ingest';
import { formatBytes, type OfflineLimits } from './limits';

/** Counts bytes flowing through and runs `check` after each chunk (which may throw to abort the stream). */
class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly check: (bytes: number) => void = () => {}) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    try {
      this.check(this.bytes);
      callback(null, chunk);
    } catch (error) {
      callback(error as Error);
    }
  }
}

function decompressionGuard(
  path: string,
  compressed: ByteCounter | undefined,
  limits: OfflineLimits,
): (bytes: number) => void {
  return (bytes) => {
    if (bytes > limits.maxDecompressedBytes) {
      throw new OfflineInputError(
        `${path}: decompresses to more than ${formatBytes(limits.maxDecompressedBytes)}`,
        'limit',
      );
    }
    if (compressed && bytes > limits.ratioGraceBytes && bytes > compressed.bytes * limits.maxCompressionRatio) {
      throw new OfflineInputError(
        `${path}: compression ratio above ${limits.maxCompressionRatio}:1 (gzip bomb?) after ${formatBytes(bytes)}`,
        'limit',
      );
    }
  };
}

function checkHeader(header: Header, limits: OfflineLimits): void {
  assertSafeEntryName(header.name);
  if (header.type === 'symlink' || header.type === 'link') {
    throw new OfflineInputError(
      `${header.type === 'link' ? 'hard link' : 'symbolic link'} in archive: ${JSON.stringify(header.name.slice(0, 200))}`,
      'unsafe',
    );
  }
  if (header.name.split('/').length > limits.maxDepth) {
    throw new OfflineInputError(`archive entry nested deeper than ${limits.maxDepth} levels`, 'limit');
  }
}

async function readEntry(
  entry: AsyncIterable<Buffer> & { header: Header },
  collector: OfflineCollector,
  limits: OfflineLimits,
): Promise<void> {
  const { header } = entry;
  checkHeader(header, limits);
  const isFile = header.type === 'file' || header.type === 'contiguous-file';
  const name = header.name.replace(/^\.\//, '');
  const kind = isFile ? classifyEntry(name) : { kind: 'skip' as const };
  const tailLines = kind.kind === 'log' ? collector.wantsLog(kind.namespace, kind.container) : undefined;
  if (kind.kind === 'log' && tailLines !== undefined) {
    const tail = new LogTail(tailLines, limits);
    for await (const chunk of entry) tail.push(chunk);
    collector.addLog(kind.namespace, kind.pod, kind.container, kind.previous, { lines: tail.finish() });
  } else if (isTextEntry(kind)) {
    await ingestEntry(collector, kind, name, entry, limits, false);
  } else {
    for await (const chunk of entry) void chunk;
  }
}

/**
 * Streams a `.tar` or gzip-compressed tar through the collector: nothing is written to disk and entry names are
 * opaque keys (unsafe names, symbolic and hard links are rejected outright). The decompressed total and the
 * compression ratio are capped while streaming, so a gzip bomb stops after a bounded amount of work.
 */
export async function readArchive(
  path: string,
  gzip: boolean,
  collector: OfflineCollector,
  limits: OfflineLimits,
): Promise<void> {
  await readArchiveStream(createReadStream(path, { highWaterMark: 256 * 1024 }), path, gzip, collector, limits);
}

/** {@link readArchive} over any byte stream (an upload); `label` names the input in errors. */
export async function readArchiveStream(
  source: Readable,
  label: string,
  gzip: boolean,
  collector: OfflineCollector,
  limits: OfflineLimits,
): Promise<void> {
  const compressed = gzip ? new ByteCounter() : undefined;
  const decompressed = new ByteCounter(decompressionGuard(label, compressed, limits));
  const extract = tarExtract();
  const abort = new AbortController();
  const stages = [source, ...(compressed ? [compressed, createGunzip()] : []), decompressed];
  let feedError: unknown;
  const feeding = pipeline([...stages, extract] as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream], {
    signal: abort.signal,
  }).catch((error: unknown) => {
    feedError ??= error;
    extract.destroy(error as Error);
  });
  let entries = 0;
  try {
    for await (const entry of extract) {
      if (collector.countEntry() > limits.maxEntries)
        throw new OfflineInputError(`${label}: more than ${limits.maxEntries} entries`, 'limit');
      entries++;
      await readEntry(entry as unknown as AsyncIterable<Buffer> & { header: Header }, collector, limits);
    }
  } catch (error) {
    abort.abort();
    await feeding;
    throw preferred(feedError, error, label);
  }
  await feeding;
  if (feedError) throw preferred(feedError, feedError, label);
  if (entries === 0) throw new OfflineInputError(`${label}: archive has no entries`);
}

/** The most telling error: a tripped limit or hostile entry over the stream teardown it caused. */
function preferred(feedError: unknown, error: unknown, path: string): OfflineInputError {
  for (const candidate of [error, feedError]) if (candidate instanceof OfflineInputError) return candidate;
  const message =
    (feedError ?? error) instanceof Error ? ((feedError ?? error) as Error).message : String(feedError ?? error);
  if (/header|tar/i.test(message)) return new OfflineInputError(`${path}: not a valid tar archive (${message})`);
  if (/incorrect header check|unexpected end of file|invalid/i.test(message)) {
    return new OfflineInputError(`${path}: corrupt or truncated gzip data (${message})`);
  }
  return new OfflineInputError(`${path}: cannot read archive: ${message}`, 'unreadable');
}
