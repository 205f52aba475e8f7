import { createReadStream, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MustGatherResultDto } from '@/lib/api/must-gather-dto';
import { OfflineInputError } from './errors';
import { MustGatherPathError, analyzeServerPath, analyzeUpload, capped, resolveUnderRoot } from './must-gather-service';
import { ResultStore } from './result-store';
import { directoryEntries, writeTestArchive } from './test-support';

const FIXTURE = 'server/fixtures/must-gather/azure-4.8.11';
const tmp = mkdtempSync(join(tmpdir(), 'mg-service-'));
const root = join(tmp, 'root');
mkdirSync(join(root, 'inside'), { recursive: true });
writeFileSync(join(tmp, 'secret.yaml'), 'kind: Secret\n');
symlinkSync(join(tmp, 'secret.yaml'), join(root, 'escape.yaml'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const owner = { createdBy: 'alice' };

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error,
  );
}

async function* chunks(...sizes: number[]): AsyncIterable<Uint8Array> {
  for (const size of sizes) yield new Uint8Array(size);
}

describe('server-side paths', () => {
  it('names neither the root nor what a path resolved to in its messages', async () => {
    for (const input of ['../secret.yaml', 'missing', 'escape.yaml']) {
      expect((await failureOf(resolveUnderRoot(root, input))).message, input).not.toContain(tmp);
    }
    expect((await failureOf(resolveUnderRoot(join(tmp, 'nope'), 'x'))).message).not.toContain(tmp);
    writeFileSync(join(root, 'inside', 'broken.tar.gz'), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]));
    const broken = await failureOf(analyzeServerPath(new ResultStore(), root, 'inside/broken.tar.gz', owner));
    expect(broken).toMatchObject({ name: 'OfflineInputError' });
    expect(broken.message).toContain('inside/broken.tar.gz');
    expect(broken.message).not.toContain(tmp);
  });

  it('opens paths under the root only', async () => {
    await expect(resolveUnderRoot(root, 'inside')).resolves.toMatch(/root\/inside$/);
    await expect(resolveUnderRoot(root, join(root, 'inside'))).resolves.toMatch(/root\/inside$/);
    for (const input of [
      '../secret.yaml',
      'inside/../../secret.yaml',
      join(tmp, 'secret.yaml'),
      '/etc/passwd',
      'escape.yaml',
    ]) {
      await expect(resolveUnderRoot(root, input), input).rejects.toMatchObject({ code: 'outside_root' });
    }
    await expect(resolveUnderRoot(root, 'missing')).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveUnderRoot(join(tmp, 'nope'), 'x')).rejects.toMatchObject({ code: 'not_found' });
    await expect(resolveUnderRoot(join(tmp, 'nope'), '../secret.yaml')).rejects.toMatchObject({ code: 'outside_root' });
    await expect(resolveUnderRoot(root, 'inside\0')).rejects.toThrow(MustGatherPathError);
  });

  it('analyzes a must-gather directory under the root', async () => {
    const store = new ResultStore();
    const linked = join(root, 'azure');
    symlinkSync(join(process.cwd(), FIXTURE), linked);
    // A link to a directory outside the root is refused like any other path outside it.
    await expect(analyzeServerPath(store, root, 'azure', owner)).rejects.toMatchObject({ code: 'outside_root' });
    rmSync(linked);
    const fixtures = join(process.cwd(), 'server/fixtures/must-gather');
    const result = await analyzeServerPath(store, fixtures, 'azure-4.8.11', owner);
    expect(result).toMatchObject({ label: 'azure-4.8.11', source: 'path', createdBy: 'alice' });
    expect(result.health.cluster.version).toBe('4.8.11');
    // Its own id space: whatever the must-gather's infrastructure name, never a fleet member's id.
    expect(result.health.cluster.id).toBe(`must-gather:${result.id}`);
    expect(result.series.clusterId).toBe(`must-gather:${result.id}`);
    expect(store.get(result.id)).toBe(result);
  });
});

describe('uploads', () => {
  it('caps the streamed size', async () => {
    const read = async (source: AsyncIterable<Uint8Array>) => {
      for await (const chunk of source) void chunk;
    };
    await expect(read(capped(chunks(10, 10), 20, 'a.tar'))).resolves.toBeUndefined();
    await expect(read(capped(chunks(10, 11), 20, 'a.tar'))).rejects.toThrow(OfflineInputError);
  });

  it('analyzes a streamed archive into the store under an unguessable id', async () => {
    const archive = join(tmp, 'mg.tar.gz');
    await writeTestArchive(archive, directoryEntries(FIXTURE, 'must-gather.local.123/'));
    const store = new ResultStore();
    const result = await analyzeUpload(store, createReadStream(archive), 'mg.tar.gz', owner);
    expect(result.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(result.createdBy).toBe('alice');
    expect(result.health.cluster.version).toBe('4.8.11');
    expect(result.clusterTimeSource).toBe('timestamp');
    expect(store.get(result.id)).toBe(result);
    await expect(analyzeUpload(store, createReadStream(archive), 'mg.tar.gz', owner, 1024)).rejects.toMatchObject({
      code: 'limit',
    });
  });
});

describe('result store', () => {
  const result = (id: string, size = 10): MustGatherResultDto =>
    ({ id, label: 'x'.repeat(size) }) as MustGatherResultDto;

  it('keeps the most recently used results within count, bytes and age', () => {
    let now = 0;
    const store = new ResultStore({ maxEntries: 2, maxBytes: 1_000, ttlMs: 100, now: () => now });
    store.put(result('a'));
    store.put(result('b'));
    store.get('a');
    store.put(result('c'));
    expect([store.get('a')?.id, store.get('b')?.id, store.get('c')?.id]).toEqual(['a', undefined, 'c']);
    store.put(result('big', 2_000));
    expect(store.size()).toBe(1);
    now = 200;
    expect(store.get('big')).toBeUndefined();
    expect(ResultStore.newId()).not.toBe(ResultStore.newId());
  });
});
