import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineInputError } from './errors';
import { readOffline, readOfflineStream, type ReadOfflineOptions } from './read-offline';
import { repeated, writeTestArchive, type TestEntry } from './test-support';

const MIB = 1024 * 1024;
const CV = 'apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n';
const CV_ENTRY: TestEntry = {
  name: 'mg/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml',
  body: CV,
};

let temp: string;
let sandbox: string;
beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'offline-hostile-'));
  sandbox = join(temp, 'sandbox');
  await mkdir(sandbox);
});
afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

/** Expects `readOffline` to reject with a one-line {@link OfflineInputError} matching `message`. */
async function rejects(paths: string[], message: RegExp, limits?: ReadOfflineOptions['limits']): Promise<void> {
  const error = await readOffline(paths, { limits }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OfflineInputError);
  expect((error as Error).message).toMatch(message);
  expect((error as Error).message).not.toContain('\n');
}

/** Peak RSS growth while `work` runs, sampled every 20 ms. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss) - base;
}

async function archive(name: string, entries: TestEntry[] | AsyncIterable<TestEntry>, level?: number): Promise<string> {
  const path = join(sandbox, name);
  await writeTestArchive(path, entries, true, level);
  return path;
}

describe('hostile archives are rejected and nothing is written outside the sandbox', () => {
  it('rejects `../` and absolute entry names', async () => {
    await rejects(
      [await archive('dotdot.tar.gz', [CV_ENTRY, { name: 'mg/../../evil.yaml', body: CV }])],
      /unsafe path in archive: "mg\/\.\.\/\.\.\/evil\.yaml"/,
    );
    await rejects(
      [await archive('absolute.tar.gz', [{ name: '/tmp/evil.yaml', body: CV }])],
      /unsafe path in archive: "\/tmp\/evil\.yaml"/,
    );
    expect(existsSync(join(temp, '..', 'evil.yaml'))).toBe(false);
    expect(existsSync(join(sandbox, '..', 'evil.yaml'))).toBe(false);
  });

  it('rejects symbolic and hard links', async () => {
    await rejects(
      [await archive('symlink.tar.gz', [CV_ENTRY, { name: 'mg/timestamp', type: 'symlink', linkname: '/etc/passwd' }])],
      /symbolic link in archive: "mg\/timestamp"/,
    );
    await rejects(
      [await archive('hardlink.tar.gz', [CV_ENTRY, { name: 'mg/version', type: 'link', linkname: '/etc/shadow' }])],
      /hard link in archive: "mg\/version"/,
    );
  });

  it('stops a gzip bomb (1 GiB of zeros, ~1 MiB compressed) by the ratio cap, in bounded memory', async () => {
    const bomb = await archive(
      'bomb.tar.gz',
      (async function* () {
        yield CV_ENTRY;
        yield { name: 'mg/host_service_logs/kubelet.log', size: 1024 * MIB, chunks: () => repeated(0, MIB, 1024) };
      })(),
      9,
    );
    const growth = await peakRssGrowth(() => rejects([bomb], /compression ratio above 200:1 \(gzip bomb\?\)/));
    expect(growth).toBeLessThan(200 * MIB);
  });

  it('stops a single 500 MB line by the line cap without buffering it', async () => {
    const line = await archive(
      'line.tar.gz',
      (async function* () {
        yield CV_ENTRY;
        yield {
          name: 'mg/namespaces/openshift-cluster-version/core/pods.yaml',
          size: 500 * MIB,
          chunks: () => repeated(0x78, MIB, 500),
        };
      })(),
      1,
    );
    const growth = await peakRssGrowth(() => rejects([line], /core\/pods\.yaml: line longer than 16 MiB/));
    expect(growth).toBeLessThan(200 * MIB);
  });

  it('rejects a YAML alias bomb, as a loose file and inside a must-gather', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`,
      );
    }
    const yaml = `${CV}status:\n  bomb:\n${levels.map((l) => `    ${l}`).join('\n')}\n`;
    const loose = join(sandbox, 'laughs.yaml');
    await writeFile(loose, yaml);
    await rejects([loose], /laughs\.yaml: documents expand to more than 2x .*\(YAML alias bomb\?\)/);
    await rejects(
      [
        await archive('laughs.tar.gz', [
          { name: 'mg/cluster-scoped-resources/config.openshift.io/clusterversions.yaml', body: yaml },
        ]),
      ],
      /YAML alias bomb/,
    );
  });

  it('rejects deep nesting, non-archives and empty files', async () => {
    const deep = join(sandbox, 'deep.json');
    await writeFile(deep, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    await rejects([deep], /nesting deeper than 256 levels/);
    const junk = join(sandbox, 'junk.bin');
    await writeFile(junk, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    await rejects([junk], /junk\.bin: not a must-gather directory, a \.tar\/\.tar\.gz archive or a YAML\/JSON file/);
    const gzipText = await archive('not-tar.tar.gz', []);
    await rejects([gzipText], /archive has no entries|not a valid tar archive/);
    await rejects(
      [await archive('deep.tar.gz', [CV_ENTRY, { name: `${'d/'.repeat(300)}x.yaml`, body: CV }])],
      /archive entry nested deeper than 256 levels/,
    );
    const xz = join(sandbox, 'must-gather.tar.xz');
    await writeFile(xz, Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 0]));
    await rejects([xz], /must-gather\.tar\.xz: xz-compressed archives are not supported; repack it as \.tar\.gz/);
    const empty = join(sandbox, 'empty.tgz');
    await writeFile(empty, '');
    await rejects([empty], /empty\.tgz: empty file/);
  });
});

describe('hostile uploads', () => {
  it('rejects an upload that is not a tar archive, and an empty one', async () => {
    const notTar = await readOfflineStream(
      Readable.from([Buffer.from('hello, this is not a tar archive\n'.repeat(40))]),
      'upload.bin',
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(notTar).toBeInstanceOf(OfflineInputError);
    expect((notTar as Error).message).toMatch(/^upload\.bin: (not a valid tar archive|archive has no entries)/);
    await expect(readOfflineStream(Readable.from([]), 'empty.tar.gz')).rejects.toThrow('empty.tar.gz: empty upload');
  });
});

describe('hostile directories', () => {
  it('never follows a symbolic link out of the root', async () => {
    const root = join(temp, 'dir-escape');
    const file = join(root, 'cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, CV);
    await writeFile(join(temp, 'outside.yaml'), CV);
    await symlink(
      join(temp, 'outside.yaml'),
      join(root, 'cluster-scoped-resources/config.openshift.io/clusteroperators.yaml'),
    );
    await rejects([root], /clusteroperators\.yaml: symbolic link points outside the input directory/);
    // A link to a directory is not walked (no cycles), a link inside the root is read.
    await rm(join(root, 'cluster-scoped-resources/config.openshift.io/clusteroperators.yaml'));
    await symlink(root, join(root, 'loop'));
    const offline = await readOffline([root]);
    expect(offline.snapshot.objects.clusterversions).toHaveLength(1);
  });

  it('applies the line cap to files in a directory', async () => {
    const root = join(temp, 'dir-line');
    await mkdir(join(root, 'namespaces/ns/core'), { recursive: true });
    await writeFile(join(root, 'namespaces/ns/core/pods.yaml'), `items: ["${'x'.repeat(2 * MIB)}"]\n`);
    await rejects([root], /pods\.yaml: line longer than 1 MiB/, { maxLineBytes: MIB });
    expect(await readdir(root)).toEqual(['namespaces']);
  });
});
