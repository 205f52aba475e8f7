import 'server-only';
import { promisify } from 'node:util';
import { constants, gzip, gzipSync } from 'node:zlib';
import { NextResponse } from 'next/server';
import type { ClusterListDto } from '@/lib/api/dto';
import { acceptsGzip } from './accept-encoding';
import { PRE_ENCODED_HEADER } from './pre-encoded';

/** Smaller answers go out as they are (the threshold Next's own compression uses: below it gzip saves nothing). */
const MIN_GZIP_BYTES = 1024;
/**
 * Lists up to this size are compressed on the event loop, at gzip's fastest level: 1.3 MB of generated rows took
 * 1.6 ms (59.8 kB at the default level took 4.5 ms, 77.8 kB at this one). A thread-pool job's result waits for a
 * turn of the event loop, and while thousands of clusters sync a turn lasts 100 ms and more: measured at 3,500
 * clusters through a hub, the list's median answer took 201 ms gzipped in the pool against 89 ms sent plain.
 */
const SYNC_MAX_BYTES = 8 * 1024 * 1024;
const gzipInPool = promisify(gzip);

/** The JSON text of frozen rows, kept as long as the row: a member's row is one frozen object until its health changes. */
const rowTexts = new WeakMap<object, string>();

function rowText(row: object): string {
  if (!Object.isFrozen(row)) return JSON.stringify(row);
  let text = rowTexts.get(row);
  if (text === undefined) {
    text = JSON.stringify(row);
    rowTexts.set(row, text);
  }
  return text;
}

/**
 * The text `JSON.stringify(list)` gives, with each unchanged row serialized once rather than per request. 3,500 rows
 * are 2 MB of JSON: serializing the list (and building its rows) for each request took a sixth of the event loop
 * while 3,500 clusters synced and the list was asked for five times a second.
 */
export function clusterListJson(list: ClusterListDto): string {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(list)) {
    if (value === undefined) continue;
    const text = key === 'clusters' ? `[${list.clusters.map(rowText).join(',')}]` : JSON.stringify(value);
    fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}

/**
 * `GET /api/clusters`'s answer: the list as {@link clusterListJson}, never cached (it is live data), gzip-compressed
 * here when the client takes gzip ({@link PRE_ENCODED_HEADER} carries the encoding past Next). Given the text, Next
 * would encode megabytes into a buffer and compress it in 16 KiB steps, one event-loop turn each. Here the text
 * becomes bytes and is compressed in one call, so those megabytes never outlive it. Buffers that live across turns
 * are promoted, and V8 counts them as external memory, whose growth starts a full collection: answered from Next's
 * buffers, the list polled five times a second started one every few seconds while 3,500 clusters synced.
 */
export async function clusterListAnswer(list: ClusterListDto, acceptEncoding: string | null): Promise<Response> {
  const text = clusterListJson(list);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    Vary: 'Accept-Encoding',
  };
  if (text.length < MIN_GZIP_BYTES || !acceptsGzip(acceptEncoding)) return new NextResponse(text, { headers });
  const level = constants.Z_BEST_SPEED;
  const body =
    text.length > SYNC_MAX_BYTES
      ? await gzipInPool(text, { level, chunkSize: text.length })
      : gzipSync(text, { level, chunkSize: 64 * 1024 });
  headers[PRE_ENCODED_HEADER] = 'gzip';
  return new NextResponse(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { headers });
}
