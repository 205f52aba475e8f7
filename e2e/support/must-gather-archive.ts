import { createWriteStream, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';

/** The real 4.8.11 must-gather kept in the repository. */
export const MUST_GATHER_FIXTURE = 'server/fixtures/must-gather/azure-4.8.11';

/** Every file under `dir`, sorted, recursively. */
export function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

/** A .tar.gz of the real 4.8.11 must-gather, as `oc adm must-gather` leaves it (`must-gather.local.<n>/...`). */
export async function buildArchive(out: string): Promise<void> {
  const pack = tarPack();
  const written = pipeline(pack, createGzip(), createWriteStream(out));
  for (const path of files(MUST_GATHER_FIXTURE)) {
    const name = `must-gather.local.5125464473519837004/${relative(MUST_GATHER_FIXTURE, path).split(sep).join('/')}`;
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name }, readFileSync(path), (error) => (error ? reject(error) : resolve())),
    );
  }
  pack.finalize();
  await written;
}
