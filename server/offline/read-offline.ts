import 'server-only';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { basename } from 'node:path';
import type { LogNeed } from '@/lib/health/types';
import { OfflineCollector, type OfflineSnapshot } from './collector';
import { classifyEntry } from './entry-path';
import { OfflineInputError, asOfflineError } from './errors';
import { DEFAULT_OFFLINE_LIMITS, type OfflineLimits } from './limits';
import { ingestText, isTextEntry } from './ingest';
import { readArchive, readArchiveStream } from './archive-source';
import { readBoundedFile, readDirectory } from './directory-source';

/** Options of {@link readOffline}. */
export interface ReadOfflineOptions {
  /** Evaluation clock (epoch ms); default: the must-gather's `timestamp`, else the newest object time. */
  now?: number;
  /** Container logs to extract (normally `requiredLogs(DETECTORS)`). */
  logNeeds?: readonly LogNeed[];
  limits?: Partial<OfflineLimits>;
}

type InputKind = 'directory' | 'gzip' | 'tar' | 'text';

/** Archive formats people send must-gathers in that are not read here, by magic number. */
const OTHER_FORMATS: [string, Buffer][] = [
  ['xz-compressed', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])],
  ['zstd-compressed', Buffer.from([0x28, 0xb5, 0x2f, 0xfd])],
  ['bzip2-compressed', Buffer.from('BZh')],
  ['zip', Buffer.from([0x50, 0x4b, 0x03, 0x04])],
];

async function sniff(path: string): Promise<InputKind> {
  const info = await stat(path).catch((error: unknown) => {
    throw asOfflineError(error, `cannot read ${path}`);
  });
  if (info.isDirectory()) return 'directory';
  if (!info.isFile()) throw new OfflineInputError(`${path}: not a file or directory`);
  if (info.size === 0) throw new OfflineInputError(`${path}: empty file`);
  const head = Buffer.alloc(512);
  const handle = await open(path, 'r');
  const { bytesRead } = await handle.read(head, 0, 512, 0).finally(() => handle.close());
  if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (bytesRead >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
  const other = OTHER_FORMATS.find(([, magic]) => head.subarray(0, magic.length).equals(magic));
  if (other) throw new OfflineInputError(`${path}: ${other[0]} archives are not supported; repack it as .tar.gz`);
  const text = head.subarray(0, bytesRead);
  if (
    /\.(ya?ml|json)$/i.test(path) ||
    (!text.includes(0) && /^\s*(---|[{[#]|[\w"'-]+\s*:)/.test(text.toString('utf8')))
  )
    return 'text';
  throw new OfflineInputError(`${path}: not a must-gather directory, a .tar/.tar.gz archive or a YAML/JSON file`);
}

/**
 * Reads one or several offline inputs into one snapshot: must-gather or resourcewatch directories, `.tar` /
 * `.tar.gz` archives of them (streamed), and loose YAML/JSON files of objects, `List`s or alerts. Throws
 * {@link OfflineInputError} with a one-line reason when an input cannot be read safely.
 */
export async function readOffline(
  paths: readonly string[],
  options: ReadOfflineOptions = {},
): Promise<OfflineSnapshot> {
  if (paths.length === 0) throw new OfflineInputError('no input given');
  const limits: OfflineLimits = { ...DEFAULT_OFFLINE_LIMITS, ...options.limits };
  const collector = new OfflineCollector(options.logNeeds ?? [], limits.maxObjects);
  for (const path of paths) {
    try {
      const kind = await sniff(path);
      if (kind === 'directory') await readDirectory(path, collector, limits);
      else if (kind === 'gzip' || kind === 'tar') await readArchive(path, kind === 'gzip', collector, limits);
      else {
        const entry = classifyEntry(basename(path));
        const textEntry = isTextEntry(entry) ? entry : { kind: 'document' as const };
        ingestText(collector, textEntry, path, await readBoundedFile(path, path, limits), limits, true);
      }
    } catch (error) {
      throw asOfflineError(error, `cannot read ${path}`);
    }
  }
  const result = await collector.build(options.now);
  if (result.stats.objects === 0) {
    throw new OfflineInputError(`no objects of a known kind found in ${paths.join(', ')}`);
  }
  return result;
}

/**
 * Reads a `.tar` / `.tar.gz` must-gather from a byte stream (e.g. an HTTP upload) with the same caps and checks
 * as {@link readOffline}; the compression is recognised from the first bytes. `label` names the input in errors.
 */
export async function readOfflineStream(
  stream: AsyncIterable<Buffer | Uint8Array>,
  label: string,
  options: ReadOfflineOptions = {},
): Promise<OfflineSnapshot> {
  const limits: OfflineLimits = { ...DEFAULT_OFFLINE_LIMITS, ...options.limits };
  const collector = new OfflineCollector(options.logNeeds ?? [], limits.maxObjects);
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.length === 0) throw new OfflineInputError(`${label}: empty upload`);
  const head = Buffer.from(first.value);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const rest = async function* () {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield Buffer.from(next.value);
  };
  try {
    await readArchiveStream(Readable.from(rest(), { objectMode: false }), label, gzip, collector, limits);
  } catch (error) {
    throw asOfflineError(error, `cannot read ${label}`);
  }
  const result = await collector.build(options.now);
  if (result.stats.objects === 0) throw new OfflineInputError(`no objects of a known kind found in ${label}`);
  return result;
}
