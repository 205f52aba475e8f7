import { describe, expect, it } from 'vitest';
import { dump } from 'js-yaml';
import { OfflineCollector } from './collector';
import { ingestEntry } from './ingest';
import { DEFAULT_OFFLINE_LIMITS } from './limits';
import { YamlListSplitter } from './list-stream';

const limits = DEFAULT_OFFLINE_LIMITS;

/** Feeds `text` in chunks of `size` bytes (cutting lines and multi-byte characters) and records what comes out. */
function split(text: string, size = 7, overrides = {}) {
  const out = { items: [] as string[], whole: [] as string[], envelope: [] as string[] };
  const splitter = new YamlListSplitter(
    't.yaml',
    { ...limits, ...overrides },
    {
      item: (t) => out.items.push(t),
      whole: (t) => out.whole.push(t),
      envelope: (t) => out.envelope.push(t),
    },
  );
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
  splitter.finish();
  return out;
}

async function* chunks(text: string, size = 5): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const OC_LIST = `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: a
    namespace: ns
    annotations:
      note: |
        two lines
        naïve ünïcode
- apiVersion: v1
  kind: Pod
  metadata:
    name: b
    namespace: ns
kind: PodList
metadata:
  resourceVersion: ""
`;

describe('YamlListSplitter', () => {
  it('cuts an oc-style list into items, whatever the chunk boundaries, and keeps the envelope', () => {
    for (const size of [1, 3, 7, 64, 4096]) {
      const out = split(OC_LIST, size);
      expect(out.whole).toEqual([]);
      expect(out.items).toHaveLength(2);
      expect(out.items[0]).toContain('naïve ünïcode');
      expect(out.items[1]).toMatch(/^apiVersion: v1\nkind: Pod\nmetadata:\n {2}name: b/);
      expect(out.envelope[0]).toBe('apiVersion: v1\nkind: PodList\nmetadata:\n  resourceVersion: ""');
    }
  });

  it("cuts js-yaml's indented sequences too", () => {
    const text = dump({
      apiVersion: 'v1',
      items: [
        { kind: 'Node', metadata: { name: 'n1' } },
        { kind: 'Node', metadata: { name: 'n2' } },
      ],
      kind: 'NodeList',
    });
    expect(text).toContain('items:\n  - kind: Node');
    expect(split(text).items).toEqual(['kind: Node\nmetadata:\n  name: n1', 'kind: Node\nmetadata:\n  name: n2']);
  });

  it('hands JSON, multi-document YAML, flow sequences and single objects over whole, byte for byte', () => {
    for (const text of [
      '{"kind":"PodList","items":[]}',
      'kind: Pod\n---\nkind: Pod\n',
      'items: [1, 2]\nkind: List\n',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n',
    ]) {
      const out = split(text);
      expect(out.items).toEqual([]);
      expect(out.whole.join('').trimEnd()).toBe(text.trimEnd());
    }
  });

  it('enforces the line cap on the bytes as they arrive', () => {
    expect(() => split(`apiVersion: v1\nitems:\n- name: ${'x'.repeat(200)}\n`, 16, { maxLineBytes: 100 })).toThrow(
      /line longer than 100 B/,
    );
  });
});

describe('ingestEntry', () => {
  it("collects every item of a streamed list, giving items without a kind the List's", async () => {
    const collector = new OfflineCollector([]);
    const text = 'apiVersion: v1\nitems:\n- metadata:\n    name: n1\n- metadata:\n    name: n2\nkind: NodeList\n';
    await ingestEntry(collector, { kind: 'resource', resource: 'nodes' }, 'nodes.yaml', chunks(text), limits, false);
    await ingestEntry(collector, { kind: 'resource', resource: 'pods' }, 'pods.yaml', chunks(OC_LIST), limits, false);
    const { snapshot, stats } = await collector.build(0);
    expect(snapshot.objects.nodes?.map((n) => n.metadata.name)).toEqual(['n1', 'n2']);
    expect(snapshot.objects.pods?.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(stats.parsedBytes).toBeGreaterThan(0);
  });

  it('in a must-gather skips one broken item with a warning and keeps the others; a file the user named must parse', async () => {
    const broken = OC_LIST.replace('    name: b\n', '    name: [b\n');
    const collector = new OfflineCollector([]);
    await ingestEntry(collector, { kind: 'resource', resource: 'pods' }, 'pods.yaml', chunks(broken), limits, false);
    const built = await collector.build(0);
    expect(built.snapshot.objects.pods?.map((p) => p.metadata.name)).toEqual(['a']);
    expect(built.warnings.join('\n')).toMatch(/pods\.yaml items\[1\]: invalid YAML/);
    await expect(
      ingestEntry(
        new OfflineCollector([]),
        { kind: 'resource', resource: 'pods' },
        'pods.yaml',
        chunks(broken),
        limits,
        true,
      ),
    ).rejects.toThrow(/pods\.yaml items\[1\]: invalid YAML/);
  });
});
