import 'server-only';
import { createWriteStream } from 'node:fs';
import { readdir, readFile, lstat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack, type Header } from 'tar-stream';

/** One entry of a test archive: a buffer body, a streamed body of `size` bytes, or a link/directory header. */
export interface TestEntry {
  name: string;
  type?: Header['type'];
  linkname?: string;
  body?: Buffer | string;
  size?: number;
  chunks?: () => AsyncIterable<Buffer>;
}

/**
 * Writes a tar (gzip-compressed unless `gzip` is false) of `entries` to `out`, streaming bodies with backpressure so
 * that multi-GB entries (bombs) never sit in memory.
 */
export async function writeTestArchive(
  out: string,
  entries: AsyncIterable<TestEntry> | Iterable<TestEntry>,
  gzip = true,
  level = 6,
): Promise<void> {
  const pack = tarPack();
  const stages = gzip ? [pack, createGzip({ level }), createWriteStream(out)] : [pack, createWriteStream(out)];
  const done = pipeline(stages as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream]);
  for await (const entry of entries) {
    if (entry.chunks) {
      const sink = pack.entry({ name: entry.name, size: entry.size, type: entry.type ?? 'file' });
      for await (const chunk of entry.chunks()) if (!sink.write(chunk)) await once(sink, 'drain');
      await new Promise<void>((resolve, reject) => sink.once('error', reject).end(() => resolve()));
    } else {
      const body = entry.body === undefined ? undefined : Buffer.from(entry.body);
      const header = {
        name: entry.name,
        type: entry.type ?? 'file',
        linkname: entry.linkname,
        size: body?.length ?? 0,
      };
      await new Promise<void>((resolve, reject) => {
        if (body) pack.entry(header, body, (error) => (error ? reject(error) : resolve()));
        else pack.entry(header, (error) => (error ? reject(error) : resolve())).end(undefined);
      });
    }
  }
  pack.finalize();
  await done;
}

/** Every regular file under `root` as archive entries named `<prefix><relative path>`. */
export async function* directoryEntries(root: string, prefix: string): AsyncIterable<TestEntry> {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const info = await lstat(path);
      if (info.isDirectory()) stack.push(path);
      else if (info.isFile())
        yield { name: prefix + relative(root, path).split(sep).join('/'), body: await readFile(path) };
    }
  }
}

/** `count` chunks of `size` bytes of `byte` (the same buffer each time: nothing accumulates). */
export async function* repeated(byte: number, size: number, count: number): AsyncIterable<Buffer> {
  const chunk = Buffer.alloc(size, byte);
  for (let i = 0; i < count; i++) yield chunk;
}
