import 'server-only';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { OfflineInputError } from './errors';
import type { OfflineLimits } from './limits';

/**
 * Checks the resolved size and depth of the parsed documents of one source without recursion. js-yaml resolves an alias to a shared
 * reference, so parsing a "billion laughs" document is cheap while anything that later serializes it (JSON output,
 * SSE, incidents) explodes; without aliases the resolved size never exceeds the source size, so a bounded walk that
 * counts every visit catches the bomb after at most `budget` steps.
 */
function checkResolvedSize(documents: unknown[], sourceBytes: number, label: string, limits: OfflineLimits): void {
  const budget = Math.floor(sourceBytes * limits.maxExpansionFactor) + 4096;
  let used = 0;
  const stack: [unknown, number][] = documents.map((document): [unknown, number] => [document, 0]);
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > limits.maxDepth)
      throw new OfflineInputError(`${label}: nesting deeper than ${limits.maxDepth} levels`, 'limit');
    if (typeof value === 'string') used += value.length + 1;
    else if (Array.isArray(value)) {
      used += 1;
      for (const item of value) stack.push([item, depth + 1]);
    } else if (value !== null && typeof value === 'object') {
      used += 1;
      for (const [key, item] of Object.entries(value)) {
        used += key.length + 1;
        stack.push([item, depth + 1]);
      }
    } else used += 1;
    if (used > budget) {
      throw new OfflineInputError(
        `${label}: documents expand to more than ${limits.maxExpansionFactor}x its ${sourceBytes}-byte source (YAML alias bomb?)`,
        'limit',
      );
    }
  }
}

function parseJson(text: string): unknown[] | undefined {
  try {
    return [JSON.parse(text)];
  } catch {
    return undefined;
  }
}

/**
 * Parses every document of a YAML (or JSON) text with the core schema: no custom types, no timestamps turned into
 * Dates, no merge keys. JSON is tried first when the text looks like JSON (several times faster than YAML).
 * Throws {@link OfflineInputError} for syntax errors, alias bombs and deep nesting.
 */
export function parseDocuments(text: string, label: string, limits: OfflineLimits): unknown[] {
  const start = text.trimStart()[0];
  let documents = start === '{' || start === '[' ? parseJson(text) : undefined;
  if (!documents) {
    try {
      documents = loadAll(text, undefined, { schema: CORE_SCHEMA, filename: label });
    } catch (error) {
      if (error instanceof RangeError) throw new OfflineInputError(`${label}: nesting too deep to parse`, 'limit');
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new OfflineInputError(`${label}: invalid YAML: ${reason}`, 'syntax');
    }
  }
  checkResolvedSize(documents, Buffer.byteLength(text), label, limits);
  return documents;
}
