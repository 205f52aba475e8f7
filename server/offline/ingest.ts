import 'server-only';
import type { OfflineCollector } from './collector';
import type { EntryClass } from './entry-path';
import { OfflineInputError } from './errors';
import { formatBytes, type OfflineLimits } from './limits';
import { parseDocuments } from './safe-yaml';
import { RESOURCES, apiVersionOf } from '@/lib/k8s/resources';
import { BoundedText } from './bounded-text';
import { YamlListSplitter } from './list-stream';

/** Entry classes whose content is read into memory and parsed (bounded by the entry caps). */
export type TextEntryClass = Extract<
  EntryClass,
  { kind: 'resource' | 'document' | 'history' | 'alerts' | 'timestamp' }
>;

/** Whether an entry of this class is read as text. */
export function isTextEntry(entry: EntryClass): entry is TextEntryClass {
  return (
    entry.kind === 'resource' ||
    entry.kind === 'document' ||
    entry.kind === 'history' ||
    entry.kind === 'alerts' ||
    entry.kind === 'timestamp'
  );
}

/**
 * Parses one text entry into the collector. Inside a must-gather (`strict` false) a file that is merely not valid
 * YAML is skipped with a warning, as real must-gathers contain truncated files; limits and hostile content always
 * abort. A loose file the user named (`strict`) must parse.
 */
export function ingestText(
  collector: OfflineCollector,
  entry: TextEntryClass,
  label: string,
  text: string,
  limits: OfflineLimits,
  strict: boolean,
): void {
  if (entry.kind === 'timestamp') {
    collector.addTimestampFile(text);
    return;
  }
  const total = collector.countParsed(Buffer.byteLength(text));
  if (total > limits.maxTotalYamlBytes) {
    throw new OfflineInputError(
      `${label}: more than ${formatBytes(limits.maxTotalYamlBytes)} of YAML/JSON in total`,
      'limit',
    );
  }
  let documents: unknown[];
  try {
    documents = parseDocuments(text, label, limits);
  } catch (error) {
    if (!strict && error instanceof OfflineInputError && error.code === 'syntax') {
      collector.warn(error.message);
      return;
    }
    throw error;
  }
  if (entry.kind === 'history') collector.addHistory(documents, entry.at);
  else if (entry.kind === 'alerts') collector.addAlerts(documents);
  else collector.addDocuments(documents);
}

function parsePiece(
  collector: OfflineCollector,
  label: string,
  text: string,
  limits: OfflineLimits,
  strict: boolean,
): unknown[] {
  const total = collector.countParsed(Buffer.byteLength(text));
  if (total > limits.maxTotalYamlBytes) {
    throw new OfflineInputError(
      `${label}: more than ${formatBytes(limits.maxTotalYamlBytes)} of YAML/JSON in total`,
      'limit',
    );
  }
  try {
    return parseDocuments(text, label, limits);
  } catch (error) {
    if (!strict && error instanceof OfflineInputError && error.code === 'syntax') {
      collector.warn(error.message);
      return [];
    }
    throw error;
  }
}

/**
 * Reads one text entry as it streams. A resource List is cut into its items and each item is parsed and collected
 * at once, so a file of thousands of pods never sits in memory as text plus a parsed tree; other entries are read
 * whole (within the entry caps) and parsed as {@link ingestText} does. In a must-gather one broken item is skipped
 * with a warning, not the whole file.
 */
export async function ingestEntry(
  collector: OfflineCollector,
  entry: TextEntryClass,
  label: string,
  chunks: AsyncIterable<Buffer>,
  limits: OfflineLimits,
  strict: boolean,
): Promise<void> {
  if (entry.kind !== 'resource') {
    const text = new BoundedText(label, limits);
    for await (const chunk of chunks) text.push(chunk);
    ingestText(collector, entry, label, text.text(), limits, strict);
    return;
  }
  // An item without its own kind (rare: oc writes kind and apiVersion on every item) is of the kind the path names;
  // waiting for the List's own `kind`, which comes after the items, would mean holding every item.
  const kindOfPath = { apiVersion: apiVersionOf(entry.resource), kind: RESOURCES[entry.resource].kind };
  let index = 0;
  const splitter = new YamlListSplitter(label, limits, {
    item: (text) => {
      for (const document of parsePiece(collector, `${label} items[${index++}]`, text, limits, strict)) {
        const object = document as { kind?: unknown } | null;
        collector.addDocuments([
          object && typeof object === 'object' && typeof object.kind !== 'string'
            ? { ...kindOfPath, ...object }
            : document,
        ]);
      }
    },
    whole: (text) => ingestText(collector, entry, label, text, limits, strict),
    // The envelope holds nothing the product reads (kind, apiVersion, metadata.resourceVersion) but must parse.
    envelope: (text) => void parsePiece(collector, label, text, limits, strict),
  });
  for await (const chunk of chunks) splitter.push(chunk);
  splitter.finish();
}
