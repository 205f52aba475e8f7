import 'server-only';
import type { OfflineCollector } from './collector';
import type { EntryClass } from './entry-path';
import { OfflineInputError } from './errors';
import { formatBytes, type OfflineLimits } from './limits';
import { parseDocuments } from './safe-yaml';

/** Entry classes whose content is read into memory and parsed (bounded by the entry caps). */
export type TextEntryClass = Extract<EntryClass, { kind: 'resource' | 'document' | 'history' | 'alerts' | 'timestamp' }>;

/** Whether an entry of this class is read as text. */
export function isTextEntry(entry: EntryClass): entry is TextEntryClass {
  return entry.kind === 'resource' || entry.kind === 'document' || entry.kind === 'history' || entry.kind === 'alerts'
    || entry.kind === 'timestamp';
}

/**
 * Parses one text entry into the collector. Inside a must-gather (`strict` false) a file that is merely not valid
 * YAML is skipped with a warning, as real must-gathers contain truncated files; limits and hostile content always
 * abort. A loose file the user named (`strict`) must parse.
 */
export function ingestText(
  collector: OfflineCollector, entry: TextEntryClass, label: string, text: string, limits: OfflineLimits, strict: boolean,
): void {
  if (entry.kind === 'timestamp') {
    collector.addTimestampFile(text);
    return;
  }
  const total = collector.countParsed(Buffer.byteLength(text));
  if (total > limits.maxTotalYamlBytes) {
    throw new OfflineInputError(`${label}: more than ${formatBytes(limits.maxTotalYamlBytes)} of YAML/JSON in total`, 'limit');
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
