import 'server-only';
import type { KubeObject, WatchEvent } from '@/lib/k8s/types';

/** A decoded watch line, or why it could not be used. */
export type DecodedLine = { ok: true; event: WatchEvent } | { ok: false; message: string };

const TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Parses one line of a watch stream and checks it has the shape of a watch event. */
export function decodeWatchLine(line: string): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      ok: false,
      message: `malformed JSON: ${(error as Error).message}; line starts ${JSON.stringify(line.slice(0, 80))}`,
    };
  }
  const event = value as Partial<WatchEvent> | null;
  if (typeof event !== 'object' || event === null || typeof event.type !== 'string' || !TYPES.has(event.type)) {
    return { ok: false, message: `not a watch event: ${line.slice(0, 80)}` };
  }
  const object = event.object as KubeObject | undefined;
  if (typeof object !== 'object' || object === null)
    return { ok: false, message: `${event.type} event without an object` };
  if (event.type !== 'ERROR' && (typeof object.metadata !== 'object' || object.metadata === null)) {
    return { ok: false, message: `${event.type} event without metadata` };
  }
  if (
    (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') &&
    typeof object.metadata.name !== 'string'
  ) {
    return { ok: false, message: `${event.type} event without metadata.name` };
  }
  return { ok: true, event: event as WatchEvent };
}
