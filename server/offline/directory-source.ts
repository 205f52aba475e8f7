import 'server-only';
import { createReadStream } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { OfflineCollector } from './collector';
import { classifyEntry, type EntryClass } from './entry-path';
import { OfflineInputError } from './errors';
import { BoundedText, readFileTail } from './bounded-text';
import { ingestEntry, isTextEntry, type TextEntryClass } from './ingest';
import type { OfflineLimits } from './limits';

/** Reads a file through the entry caps (size, line length) without trusting its reported size. */
export async function readBoundedFile(path: string, label: string, limits: OfflineLimits): Promise<string> {
  const text = new BoundedText(label, limits);
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) text.push(chunk as Buffer);
  } finally {
    stream.destroy();
  }
  return text.text();
}

/** Streams a file through {@link ingestEntry} (resource lists item by item). */
export async function ingestFileEntry(
  collector: OfflineCollector,
  entry: TextEntryClass,
  path: string,
  label: string,
  limits: OfflineLimits,
  strict: boolean,
): Promise<void> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    await ingestEntry(collector, entry, label, stream as AsyncIterable<Buffer>, limits, strict);
  } finally {
    stream.destroy();
  }
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

async function ingestFile(
  collector: OfflineCollector,
  path: string,
  rel: string,
  entry: EntryClass,
  limits: OfflineLimits,
): Promise<void> {
  if (entry.kind === 'log') {
    collector.addLog(entry.namespace, entry.pod, entry.container, entry.previous, {
      read: (tailLines) => readFileTail(path, tailLines, limits),
    });
  } else if (isTextEntry(entry)) {
    await ingestFileEntry(collector, entry, path, rel, limits, false);
  }
}

/**
 * Reads a must-gather (or any tree of object dumps) from a directory. Symbolic links are never followed out of the
 * root (an escaping link is an error) and links to directories are not walked, so cycles cannot occur. Logs are
 * only indexed here and read when the snapshot is built.
 */
export async function readDirectory(root: string, collector: OfflineCollector, limits: OfflineLimits): Promise<void> {
  const realRoot = await realpath(root);
  const stack: { dir: string; depth: number }[] = [{ dir: realRoot, depth: 0 }];
  while (stack.length > 0) {
    const { dir, depth } = stack.pop()!;
    if (depth > limits.maxDepth)
      throw new OfflineInputError(`${root}: directories nested deeper than ${limits.maxDepth} levels`, 'limit');
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      if (collector.countEntry() > limits.maxEntries) {
        throw new OfflineInputError(`${root}: more than ${limits.maxEntries} entries`, 'limit');
      }
      const path = join(dir, name);
      const rel = relative(realRoot, path).split(sep).join('/');
      const info = await lstat(path);
      if (info.isDirectory()) {
        stack.push({ dir: path, depth: depth + 1 });
        continue;
      }
      let target = path;
      if (info.isSymbolicLink()) {
        target = await realpath(path).catch(() => '');
        if (!target) continue;
        if (!isInside(realRoot, target))
          throw new OfflineInputError(`${rel}: symbolic link points outside the input directory`, 'unsafe');
        if (!(await stat(target)).isFile()) continue;
      } else if (!info.isFile()) continue;
      await ingestFile(collector, target, rel, classifyEntry(rel), limits);
    }
  }
}
